#pragma once
// A lab's "Methods" group: one check box per method, its label, colour and tooltip read from the
// method registry (core/lab/Methods.h through ui/common/MethodStyle.h), greyed when disabled.
#include "ui/common/MethodStyle.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>
#include <vector>

/// A lab's method check boxes, each with its method.
template <class Method> class MethodBoxes : public std::vector<std::pair<Method, QCheckBox*>> {
  public:
    QCheckBox* box(Method method) const { ///< nullptr: the lab has no box for it
        for (const auto& [m, b] : *this)
            if (m == method)
                return b;
        return nullptr;
    }
    /// The methods whose boxes are checked (and, if given, that keep(m) accepts), in order.
    template <class Keep = bool (*)(Method)>
    std::vector<Method> checked(Keep keep = [](Method) { return true; }) const {
        std::vector<Method> out;
        for (const auto& [m, b] : *this)
            if (b->isChecked() && keep(m))
                out.push_back(m);
        return out;
    }
    /// Checks exactly the boxes of these methods.
    void check(const std::vector<Method>& methods) const {
        for (const auto& [m, b] : *this)
            b->setChecked(std::find(methods.begin(), methods.end(), m) != methods.end());
    }
    /// Calls f() whenever a box is toggled.
    template <class Receiver, class F> void onToggled(Receiver* receiver, F f) const {
        for (const auto& [m, b] : *this)
            QObject::connect(b, &QCheckBox::toggled, receiver, f);
    }
};

/// A check box for the method with this id.
inline QCheckBox* methodCheckBox(const std::string& id, std::optional<fa::Lab> lab, bool checked) {
    auto* box = new QCheckBox(displayName(id, lab));
    QPalette pal = box->palette();
    pal.setColor(QPalette::Active, QPalette::WindowText, colourFor(id, lab));
    pal.setColor(QPalette::Inactive, QPalette::WindowText, colourFor(id, lab));
    pal.setColor(QPalette::Disabled, QPalette::WindowText, QColor(160, 160, 160));
    box->setPalette(pal);
    box->setToolTip(methodTip(id, lab));
    box->setChecked(checked);
    return box;
}

/// The group of `methods` in order, each named by name(m) and checked if checked(m); the boxes
/// are appended to `boxes`.
template <class Method, class Name, class Checked>
QGroupBox* methodGroup(const std::vector<Method>& methods, Name name, std::optional<fa::Lab> lab,
                       Checked checked, std::vector<std::pair<Method, QCheckBox*>>& boxes) {
    auto* group = new QGroupBox("Methods");
    auto* column = new QVBoxLayout(group);
    for (const Method m : methods) {
        QCheckBox* box = methodCheckBox(name(m), lab, checked(m));
        column->addWidget(box);
        boxes.emplace_back(m, box);
    }
    return group;
}

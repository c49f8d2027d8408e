#pragma once
// A lab's "Methods" group: one check box per method, its label, colour and tooltip read from the
// method registry (core/lab/Methods.h through ui/common/MethodStyle.h), greyed when disabled.
#include "ui/common/MethodStyle.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QVBoxLayout>
#include <utility>
#include <vector>

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

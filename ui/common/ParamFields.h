#pragma once
// The window's fields of a lab's parameters, built from its schema (core/lab/Params.h): the
// range, the default and the tooltip come from the one description the CLI, the sessions and
// the core read too; read() and show() move values between the fields and a configuration.
// A whole number beyond int's range (a seed up to 2^53 - 1) is a whole-number RealSpinBox.
#include "core/lab/Params.h"

#include <QAbstractSpinBox>
#include <QFormLayout>
#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

/// A field (IntSpinBox or RealSpinBox, ui/common/FormWidgets.h) for one parameter, showing
/// `value`; its objectName is the parameter's CLI flag (else its session key), its accessible
/// name its label.
QAbstractSpinBox* paramField(const fa::ParamInfo& p, double value);
double fieldValue(const QAbstractSpinBox* box);
void setFieldValue(QAbstractSpinBox* box, double value);
/// Calls `slot` with the field's new value when it is committed (Enter, focus-out, a step).
void onFieldChanged(QAbstractSpinBox* box, QObject* context, std::function<void(double)> slot);

template <class Config> class ParamFields {
  public:
    explicit ParamFields(const fa::Schema<Config>& schema) : m_schema(schema) {}

    /// The field of the parameter with this CLI flag (or, for one the CLI does not take, this
    /// session key), made on first use showing the default.
    QAbstractSpinBox* field(const std::string& key) {
        const fa::Param<Config>& p = fa::paramByKey(m_schema, key);
        for (const auto& [made, box] : m_made)
            if (made == &p)
                return box;
        QAbstractSpinBox* box = paramField(p, p.fallback);
        m_made.emplace_back(&p, box);
        return box;
    }
    /// A row per parameter in `form`, each labelled as the schema labels it: the window names a
    /// parameter as --help and the core's messages do.
    void addRows(QFormLayout* form, std::initializer_list<std::string> keys) {
        for (const std::string& key : keys)
            form->addRow(QString::fromStdString(fa::paramByKey(m_schema, key).label), field(key));
    }
    /// Every field made, into a configuration.
    void read(Config& config) const {
        for (const auto& [p, box] : m_made)
            p->set(config, fieldValue(box));
    }
    /// A configuration's values into every field made (the caller silences the fields' slots).
    void show(const Config& config) const {
        for (const auto& [p, box] : m_made)
            setFieldValue(box, p->get(config));
    }
    /// Every field made calls `slot` when committed, but those in `apart` (the page connects
    /// them itself: a live change, a reset of the view).
    void onAnyChanged(QObject* context, const std::function<void()>& slot,
                      std::initializer_list<const QAbstractSpinBox*> apart = {}) const {
        for (const auto& made : m_made)
            if (std::find(apart.begin(), apart.end(), made.second) == apart.end())
                onFieldChanged(made.second, context, [slot](double) { slot(); });
    }
    std::vector<QAbstractSpinBox*> fields() const {
        std::vector<QAbstractSpinBox*> all;
        for (const auto& made : m_made)
            all.push_back(made.second);
        return all;
    }

  private:
    const fa::Schema<Config>& m_schema;
    std::vector<std::pair<const fa::Param<Config>*, QAbstractSpinBox*>> m_made;
};

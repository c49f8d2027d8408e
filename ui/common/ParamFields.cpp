#include "ui/common/ParamFields.h"

#include "ui/common/FormWidgets.h"

#include <climits>

QAbstractSpinBox* paramField(const fa::ParamInfo& p, double value) {
    const QString tip = QString::fromStdString(p.help);
    QAbstractSpinBox* box = nullptr;
    if (p.kind == fa::ParamKind::Whole && p.lo >= INT_MIN && p.hi <= INT_MAX)
        box = intBox(static_cast<int>(p.lo), static_cast<int>(p.hi), static_cast<int>(value), tip);
    else
        box = realBox(p.lo, p.hi, value, p.kind == fa::ParamKind::Whole ? 0 : 6, tip);
    box->setObjectName(QString::fromStdString(p.flag.empty() ? p.session : p.flag));
    box->setAccessibleName(QString::fromStdString(p.label));
    return box;
}

double fieldValue(const QAbstractSpinBox* box) {
    if (const auto* i = qobject_cast<const QSpinBox*>(box))
        return i->value();
    return qobject_cast<const QDoubleSpinBox*>(box)->value();
}

void setFieldValue(QAbstractSpinBox* box, double value) {
    if (auto* i = qobject_cast<QSpinBox*>(box))
        i->setValue(static_cast<int>(value));
    else
        qobject_cast<QDoubleSpinBox*>(box)->setValue(value);
}

void onFieldChanged(QAbstractSpinBox* box, QObject* context, std::function<void(double)> slot) {
    if (auto* i = qobject_cast<QSpinBox*>(box))
        QObject::connect(i, &QSpinBox::valueChanged, context, [slot](int v) { slot(v); });
    else
        QObject::connect(qobject_cast<QDoubleSpinBox*>(box), &QDoubleSpinBox::valueChanged, context,
                         slot);
}

#include "ui/common/FormWidgets.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPointer>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>
#include <type_traits>

namespace {

/// Eats Space in a spin box: the ShortcutOverride is left unaccepted, so the window's Space
/// shortcut (Play / Pause) fires; a Space key press that reaches the box types nothing.
class SpaceFilter : public QObject {
  public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() == QEvent::ShortcutOverride || e->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(e);
            if (key->key() == Qt::Key_Space) {
                key->ignore();
                return true;
            }
        }
        return QObject::eventFilter(watched, e);
    }
};

/// The number part of a spin box's text: prefix, suffix and surrounding spaces removed.
template <class Box> QString numberPart(const Box* box, QString text) {
    if (!box->prefix().isEmpty() && text.startsWith(box->prefix()))
        text.remove(0, box->prefix().size());
    if (!box->suffix().isEmpty() && text.endsWith(box->suffix()))
        text.chop(box->suffix().size());
    return text.trimmed();
}

/// Whether the text is a number, or the start of one, that lies outside the box's range: a
/// lone sign, a negative number when the minimum is not negative, or a value past a bound.
template <class Box> bool outsideRange(const Box* box, const QString& text) {
    if (!box->specialValueText().isEmpty() && text == box->specialValueText())
        return false;
    const QString n = numberPart(box, text);
    if (n == "-" || n == "+")
        return true;
    const bool integer = std::is_same_v<Box, IntSpinBox>;
    const QString point = QRegularExpression::escape(box->locale().decimalPoint());
    // A whole field takes scientific notation too ("1e3"), as a real one does.
    const QRegularExpression number(
        integer ? QString(R"(^[+-]?\d+(%1\d+)?([eE][+-]?\d+)?$)").arg(point)
                : QString(R"(^[+-]?(\d+(%1\d*)?|%1\d+)([eE][+-]?\d+)?$)").arg(point));
    if (!number.match(n).hasMatch())
        return false;
    if (n.startsWith('-') && box->minimum() >= 0)
        return true; // -0 too: the minus sign is not ignored
    QString digits = n;
    if (digits.endsWith(box->locale().decimalPoint()))
        digits.chop(box->locale().decimalPoint().size());
    bool ok = false;
    const double v = box->locale().toDouble(digits, &ok);
    // A number too large or too small for a double (1e400, 1e-400) is no number Qt can take:
    // outside too, so that it is refused with the range, not undone without a word.
    return !ok || v < box->minimum() || v > box->maximum();
}

template <class Box>
QValidator::State allowOutside(const Box* box, const QString& text, QValidator::State state) {
    // Qt calls a number past a bound Invalid, so the keystroke (a minus sign, the last digit)
    // would be dropped; Intermediate keeps it in the field until Enter refuses it with a reason.
    return state == QValidator::Invalid && outsideRange(box, text) ? QValidator::Intermediate
                                                                   : state;
}

QString bound(int v, const QLocale&) {
    return QString::number(v);
}
QString bound(double v, const QLocale& locale) {
    return locale.toString(v, 'g', 10);
}

bool holds(QLayoutItem* item, const QWidget* field) {
    if (!item)
        return false;
    if (item->widget())
        return item->widget() == field;
    if (QLayout* l = item->layout())
        for (int i = 0; i < l->count(); ++i)
            if (holds(l->itemAt(i), field))
                return true;
    return false;
}

QString fieldNameOf(const QWidget* field) {
    QString name = field->accessibleName();
    for (const QFormLayout* form : field->window()->findChildren<QFormLayout*>()) {
        if (!name.isEmpty())
            break;
        for (int row = 0; row < form->rowCount() && name.isEmpty(); ++row)
            if (holds(form->itemAt(row, QFormLayout::FieldRole), field))
                if (QLayoutItem* label = form->itemAt(row, QFormLayout::LabelRole))
                    if (auto* l = qobject_cast<QLabel*>(label->widget()))
                        name = l->text();
    }
    name.replace("&&", "\x01").remove('&').replace("\x01", "&");
    name = name.trimmed();
    if (name.endsWith(':'))
        name.chop(1);
    if (name.isEmpty())
        return "This value";
    // "latent K" starts a sentence as "Latent K"; "D", "α" and "η for c" stay as they are.
    const char16_t first = name[0].unicode();
    if (name.size() > 1 && first >= u'a' && first <= u'z' && name[1].isLetter())
        name[0] = name[0].toUpper();
    return name;
}

/// Tells the user why the typed number was not used: the window's status bar and a tooltip at
/// the field (shown once pending focus changes are delivered, which would hide it at once).
template <class Box> void tell(Box* box, const QString& why) {
    if (auto* main = qobject_cast<QMainWindow*>(box->window()))
        main->statusBar()->showMessage("⚠ " + why, 10000);
    QTimer::singleShot(0, box, [box = QPointer<Box>(box), why] {
        if (box && box->isVisible())
            QToolTip::showText(box->mapToGlobal(QPoint(0, box->height())), why, box);
    });
    emit box->refused(why);
}

/// Takes down this field's own warning once the field has taken a number (it would otherwise
/// stay up for its 10 s beside a value that is fine); another field's warning stays.
template <class Box> void forgetWarning(Box* box) {
    if (auto* main = qobject_cast<QMainWindow*>(box->window()))
        if (main->statusBar()->currentMessage().startsWith("⚠ " + box->fieldName() + " "))
            main->statusBar()->clearMessage();
}

template <class Box> void refuse(Box* box, const QString& typed) {
    tell(box, QString("%1 must be between %2 and %3; %4 was not used")
                  .arg(box->fieldName(), bound(box->minimum(), box->locale()),
                       bound(box->maximum(), box->locale()), typed));
}

/// Runs one of Qt's handlers that interpret the typed text (Enter, focus-out, hide, a step):
/// a number outside the range is reverted there (CorrectToPreviousValue); say so when it was.
template <class Box, class Handler> void guarded(Box* box, Handler handler) {
    const QString before = box->text();
    const bool outside = outsideRange(box, before);
    const bool empty = numberPart(box, before).isEmpty() && box->specialValueText().isEmpty();
    bool fraction = false; // a whole field given 2.5 (or 2.5e0)
    if constexpr (std::is_same_v<Box, IntSpinBox>) {
        bool ok = false;
        const double v = box->locale().toDouble(numberPart(box, before), &ok);
        fraction = ok && std::isfinite(v) && v != std::floor(v);
    }
    handler();
    if (outside && box->text() != before)
        refuse(box, numberPart(box, before));
    else if (fraction && box->text() != before)
        tell(box, QString("%1 must be a whole number; %2 was not used")
                      .arg(box->fieldName(), numberPart(box, before)));
    else if (empty && box->text() != before)
        tell(box, QString("%1 needs a number; %2 is kept")
                      .arg(box->fieldName(), numberPart(box, box->text())));
    else if (!outside && !fraction && !empty)
        forgetWarning(box);
}

/// A real number as typed, or the start of one: digits, one decimal point, an exponent.
QValidator::State realState(const QString& n, const QString& point, double lo, double hi,
                            const QLocale& locale) {
    const QString p = QRegularExpression::escape(point);
    const QRegularExpression full(QString(R"(^[+-]?(\d+(%1\d*)?|%1\d+)([eE][+-]?\d+)?$)").arg(p));
    if (full.match(n).hasMatch()) {
        bool ok = false;
        const double v = locale.toDouble(n, &ok);
        return ok && std::isfinite(v) && v >= lo && v <= hi ? QValidator::Acceptable
                                                            : QValidator::Intermediate;
    }
    const QRegularExpression partial(QString(R"(^[+-]?(\d*(%1\d*)?)([eE][+-]?)?$)").arg(p));
    return partial.match(n).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

/// The fields the wheel must not change unless they have the focus (a scroll bar is no field:
/// the wheel is what it is for, and a scroll area hands it the wheel it gets).
bool isWheelField(const QObject* o) {
    return qobject_cast<const QAbstractSpinBox*>(o) || qobject_cast<const QComboBox*>(o) ||
           (qobject_cast<const QAbstractSlider*>(o) && !qobject_cast<const QScrollBar*>(o));
}

class WheelGuard : public QObject {
  public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() == QEvent::Polish && isWheelField(watched)) {
            auto* w = static_cast<QWidget*>(watched);
            if (w->focusPolicy() == Qt::WheelFocus)
                w->setFocusPolicy(Qt::StrongFocus); // the wheel gives no focus, so it cannot edit
        } else if (e->type() == QEvent::Wheel && isWheelField(watched)) {
            auto* w = static_cast<QWidget*>(watched);
            if (w->hasFocus())
                return false;
            // Scroll the column the field sits in, as if the wheel were over its background.
            for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
                if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
                    const auto* wheel = static_cast<QWheelEvent*>(e);
                    QWheelEvent copy(area->viewport()->mapFromGlobal(wheel->globalPosition()),
                                     wheel->globalPosition(), wheel->pixelDelta(),
                                     wheel->angleDelta(), wheel->buttons(), wheel->modifiers(),
                                     wheel->phase(), wheel->inverted(), wheel->source());
                    QCoreApplication::sendEvent(area->viewport(), &copy);
                    break;
                }
            return true;
        }
        return QObject::eventFilter(watched, e);
    }
};

/// Keeps a wrapped label's minimum height at what its width needs (followWrappedHeight).
class WrappedHeight : public QObject {
  public:
    static constexpr const char* kName = "faWrappedHeight";
    explicit WrappedHeight(QLabel* label) : QObject(label) { setObjectName(kName); }
    static void fit(QLabel* label) {
        const int h = label->heightForWidth(label->width());
        if (h > 0 && h != label->minimumHeight())
            label->setMinimumHeight(h);
    }
    bool eventFilter(QObject* watched, QEvent* e) override {
        auto* label = static_cast<QLabel*>(watched);
        if (e->type() == QEvent::Resize)
            fit(label);
        else if (e->type() == QEvent::FontChange) // once the label has taken the new font
            QTimer::singleShot(0, label, [label] { fit(label); });
        return QObject::eventFilter(watched, e);
    }
};

} // namespace

void followWrappedHeight(QLabel* label) {
    if (!label->findChild<QObject*>(WrappedHeight::kName, Qt::FindDirectChildrenOnly))
        label->installEventFilter(new WrappedHeight(label));
    WrappedHeight::fit(label);
}

void installWheelGuard() {
    static QObject* guard = nullptr;
    if (guard || !qApp)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

void letSpaceThrough(QAbstractSpinBox* box) {
    box->installEventFilter(new SpaceFilter(box));
}

template <class Field, class Base>
GuardedSpinBox<Field, Base>::GuardedSpinBox(QWidget* parent) : Base(parent) {
    letSpaceThrough(this);
    installWheelGuard();
}

template <class Field, class Base> QString GuardedSpinBox<Field, Base>::fieldName() const {
    return fieldNameOf(this);
}

template <class Field, class Base> void GuardedSpinBox<Field, Base>::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter)
        guarded(static_cast<Field*>(this), [&] { Base::keyPressEvent(e); });
    else
        Base::keyPressEvent(e);
}

template <class Field, class Base> void GuardedSpinBox<Field, Base>::focusOutEvent(QFocusEvent* e) {
    guarded(static_cast<Field*>(this), [&] { Base::focusOutEvent(e); });
}

template <class Field, class Base> void GuardedSpinBox<Field, Base>::hideEvent(QHideEvent* e) {
    guarded(static_cast<Field*>(this), [&] { Base::hideEvent(e); });
}

template <class Field, class Base> void GuardedSpinBox<Field, Base>::changeEvent(QEvent* e) {
    guarded(static_cast<Field*>(this), [&] { Base::changeEvent(e); });
}

template <class Field, class Base> void GuardedSpinBox<Field, Base>::stepBy(int steps) {
    guarded(static_cast<Field*>(this), [&] { Base::stepBy(steps); });
}

template class GuardedSpinBox<IntSpinBox, QSpinBox>;
template class GuardedSpinBox<RealSpinBox, QDoubleSpinBox>;

IntSpinBox::IntSpinBox(QWidget* parent) : GuardedSpinBox(parent) {}

QValidator::State IntSpinBox::validate(QString& text, int& pos) const {
    // Scientific notation ("1e3", "2.5e2", or "1e" on the way): a whole number in the range is
    // taken; anything else stays typed until Enter refuses it with a reason, never cut to the
    // digits Qt's own validator would keep ("1e9" was taken as 19).
    const QString n = numberPart(this, text);
    const QString point = QRegularExpression::escape(locale().decimalPoint());
    if (QRegularExpression(QString(R"(^[+-]?\d+%1\d*$)").arg(point)).match(n).hasMatch())
        return QValidator::Intermediate; // "2." or "2.5": the start of "2.5e2"
    if (QRegularExpression(QString(R"(^[+-]?\d+(%1\d*)?[eE][+-]?\d*$)").arg(point))
            .match(n)
            .hasMatch()) {
        bool ok = false;
        const double v = locale().toDouble(n, &ok);
        return ok && v == std::floor(v) && v >= minimum() && v <= maximum()
                   ? QValidator::Acceptable
                   : QValidator::Intermediate;
    }
    return allowOutside(this, text, QSpinBox::validate(text, pos));
}

int IntSpinBox::valueFromText(const QString& text) const {
    const QString n = numberPart(this, text);
    if (n.contains('e') || n.contains('E')) {
        bool ok = false;
        const double v = locale().toDouble(n, &ok);
        if (ok && v >= minimum() && v <= maximum())
            return static_cast<int>(std::lround(v));
    }
    return QSpinBox::valueFromText(text);
}

RealSpinBox::RealSpinBox(QWidget* parent) : GuardedSpinBox(parent) {
    setWhole(false);
}

void RealSpinBox::setWhole(bool whole) {
    m_whole = whole;
    // Qt rounds every value to decimals(): 15 keeps what a real field is given (1e-8 included).
    setDecimals(whole ? 0 : 15);
}

QValidator::State RealSpinBox::validate(QString& text, int& pos) const {
    if (m_whole)
        return allowOutside(this, text, QDoubleSpinBox::validate(text, pos));
    if (!specialValueText().isEmpty() && text == specialValueText())
        return QValidator::Acceptable;
    return realState(numberPart(this, text), locale().decimalPoint(), minimum(), maximum(),
                     locale());
}

QString RealSpinBox::textFromValue(double value) const {
    QString s;
    const double a = std::abs(value);
    if (m_whole)
        s = locale().toString(value, 'f', 0);
    else if (a == 0.0)
        s = "0";
    else if (a < 1e-4 || a >= 1e9)
        s = locale().toString(value, 'e', QLocale::FloatingPointShortest);
    else
        s = locale().toString(value, 'f', QLocale::FloatingPointShortest);
    if (!isGroupSeparatorShown())
        s.remove(locale().groupSeparator());
    return s;
}

double RealSpinBox::valueFromText(const QString& text) const {
    QString n = numberPart(this, text);
    n.remove(locale().groupSeparator());
    bool ok = false;
    const double v = locale().toDouble(n, &ok);
    return ok ? v : QDoubleSpinBox::valueFromText(text);
}

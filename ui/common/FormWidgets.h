#pragma once
// Spin boxes as every parameter panel wants them: range, value, tooltip, and no signal per
// keystroke (valueChanged fires on Enter or focus-out), so a half-typed number never starts a run.
// Two desktop habits on top of QSpinBox / QDoubleSpinBox:
// - Space is the window's Play / Pause even while a field has the focus (numbers have no spaces):
//   the field lets the Space shortcut through and never types a space.
// - A number outside [min, max], a negative one included, can be typed in full but is refused on
//   Enter, focus-out or a step: the value in use stays, the field shows it again, and the window's
//   status bar and a tooltip at the field say why ("D must be between 2 and 5000; -5 was not
//   used"). Plain Qt drops the minus sign while typing and reverts without a word.
// - A real field takes scientific notation (1e-4, 2.5E+6) and keeps the value as typed (no
//   rounding to a number of decimals); it shows the shortest text that reads back as the value,
//   in exponent form below 10^-4 and from 10^9 on.
// - The mouse wheel changes a field (spin box, combo box, slider) only while it has the focus;
//   over an unfocused one it scrolls the column around it (installWheelGuard, once per program).
// The name in the message is the field's accessibleName(), else its label in a QFormLayout row.
#include <QDoubleSpinBox>
#include <QSpinBox>

/// Lets Space reach the window's shortcuts from a spin box made elsewhere (a plain QSpinBox).
void letSpaceThrough(QAbstractSpinBox* box);

/// What both kinds of field add to their Qt base (QSpinBox or QDoubleSpinBox): Space let through,
/// the wheel guard, and Qt's handlers that interpret the typed text (Enter, focus-out, hide, a
/// step) run so that a number not used is said, with the reason. Field is the field's own class,
/// which declares the refused signal (ui/common/FormWidgets.cpp instantiates the two).
template <class Field, class Base> class GuardedSpinBox : public Base {
  public:
    explicit GuardedSpinBox(QWidget* parent = nullptr);
    QString fieldName() const; ///< accessibleName(), else the form row's label

  protected:
    void keyPressEvent(QKeyEvent* e) override;
    void focusOutEvent(QFocusEvent* e) override;
    void hideEvent(QHideEvent* e) override;
    void changeEvent(QEvent* e) override; ///< the window deactivated: Qt interprets the text
    void stepBy(int steps) override;
};

class IntSpinBox : public GuardedSpinBox<IntSpinBox, QSpinBox> {
    Q_OBJECT
  public:
    explicit IntSpinBox(QWidget* parent = nullptr);

  signals:
    void refused(const QString& why); ///< a typed number was not used (also shown to the user)

  protected:
    QValidator::State validate(QString& text, int& pos) const override;
    int valueFromText(const QString& text) const override; ///< "1e3" as 1000 too
};

class RealSpinBox : public GuardedSpinBox<RealSpinBox, QDoubleSpinBox> {
    Q_OBJECT
  public:
    explicit RealSpinBox(QWidget* parent = nullptr);
    /// 0: whole numbers (a seed), rounded as typed; otherwise any real, kept as typed.
    void setWhole(bool whole);

  signals:
    void refused(const QString& why);

  protected:
    QValidator::State validate(QString& text, int& pos) const override;
    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;

  private:
    bool m_whole = false;
};

/// Wheel events over an unfocused spin box, combo box or slider scroll the enclosing scroll
/// area instead, and those widgets no longer take the focus from the wheel. Installed on the
/// application once (every IntSpinBox, RealSpinBox and the main window call it).
void installWheelGuard();

class QLabel;

/// A word-wrapped label in a scrolled parameter column keeps the height its text needs at its
/// width (the column's scroll area allots a label its one-width size hint, which cut three lines
/// to two at 200 %): its minimum height follows each resize and font change, and a call after
/// setText fits it at once.
void followWrappedHeight(QLabel* label);

inline IntSpinBox* intBox(int lo, int hi, int value, const QString& tip) {
    auto* b = new IntSpinBox;
    b->setRange(lo, hi);
    b->setValue(value);
    b->setToolTip(tip);
    b->setKeyboardTracking(false);
    return b;
}

inline RealSpinBox* realBox(double lo, double hi, double value, int decimals, const QString& tip) {
    auto* b = new RealSpinBox;
    b->setWhole(decimals == 0);
    b->setRange(lo, hi);
    b->setValue(value);
    b->setToolTip(tip);
    b->setKeyboardTracking(false);
    return b;
}

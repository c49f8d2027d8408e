#pragma once
// A one-line label that may be narrower than its text: it draws the text elided ("…"), so a long
// status line (four fitters' scores) cannot widen the window past a 1280-pixel screen.
#include <QLabel>
#include <QPainter>

class ElidedLabel : public QLabel {
  public:
    using QLabel::QLabel;
    QSize minimumSizeHint() const override {
        return {fontMetrics().averageCharWidth() * 12, QLabel::minimumSizeHint().height()};
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const QRect r = contentsRect();
        p.drawText(r, static_cast<int>(alignment()),
                   fontMetrics().elidedText(text(), Qt::ElideRight, r.width()));
    }
};

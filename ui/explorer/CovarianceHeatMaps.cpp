#include "ui/explorer/CovarianceHeatMaps.h"
#include "ui/common/ViewFocus.h"

#include "ui/common/MethodStyle.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <cmath>

CovarianceHeatMaps::CovarianceHeatMaps(QWidget* parent) : QWidget(parent) {
    ViewFocus::markView(this); // a double-click enlarges it
    setMouseTracking(true);
    setMinimumSize(360, 240); // two rows of views and a caption fit 1280 x 800 at 200 %
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base); // white, or black in the dark theme
    setForegroundRole(QPalette::Text);
    setToolTip("Leading block of the covariance S = F Fᵀ + Ψ: the truth, each estimate Ŝ, and Ŝ − "
               "S below it. "
               "One colour scale for all: ± the largest off-diagonal |S_ij| of the true block\n"
               "(variances beyond it are drawn at full colour). Hover a cell for its value.");
}

QColor CovarianceHeatMaps::colourOf(double value, double scale) {
    if (!std::isfinite(value))
        return QColor(200, 200, 200);
    const double t = std::clamp(value / scale, -1.0, 1.0);
    // white at 0, towards (178, 24, 43) for +scale and (33, 102, 172) for -scale
    const QColor end = t >= 0 ? QColor(178, 24, 43) : QColor(33, 102, 172);
    const double a = std::abs(t);
    return QColor(static_cast<int>(std::lround(255 + a * (end.red() - 255))),
                  static_cast<int>(std::lround(255 + a * (end.green() - 255))),
                  static_cast<int>(std::lround(255 + a * (end.blue() - 255))));
}

void CovarianceHeatMaps::showSnapshot(const fa::ExplorerSnapshot& snap) {
    m_panels.clear();
    if (snap.models.empty())
        return;
    const fa::Matrix& truth = snap.models.front().block;
    // The scale is the largest off-diagonal |S_ij|: the structure lives off the diagonal, and a
    // scale set by the (larger) variances would wash it out. Variances beyond it saturate.
    fa::Matrix off = truth.cwiseAbs();
    off.diagonal().setZero();
    m_scale = off.size() > 1 ? off.maxCoeff() : truth.cwiseAbs().maxCoeff();
    if (!(m_scale > 0.0) || !std::isfinite(m_scale))
        m_scale = 1.0;
    const long B = truth.rows();
    m_caption =
        B < snap.dim
            ? QString("Covariance, coordinates 1–%1 of %2 (leading block)").arg(B).arg(snap.dim)
            : QString("Covariance, all %1 coordinates").arg(snap.dim);
    auto image = [&](const fa::Matrix& m) {
        QImage img(static_cast<int>(m.cols()), static_cast<int>(m.rows()), QImage::Format_RGB32);
        for (int r = 0; r < m.rows(); ++r)
            for (int c = 0; c < m.cols(); ++c)
                img.setPixelColor(c, r, colourOf(m(r, c), m_scale));
        return img;
    };
    std::vector<Panel> estimates, differences;
    m_panels.push_back({"true S", truth, image(truth), {}});
    for (std::size_t k = 1; k < snap.models.size(); ++k) {
        const fa::ModelView& v = snap.models[k];
        const QString name = displayName(v.name);
        if (!v.valid) {
            const fa::Matrix nan = fa::Matrix::Constant(B, B, NAN);
            estimates.push_back({name + " (diverged)", nan, image(nan), {}});
            differences.push_back({name + " − S", nan, image(nan), {}});
            continue;
        }
        estimates.push_back({name, v.block, image(v.block), {}});
        const fa::Matrix diff = v.block - truth;
        differences.push_back({name + " − S", diff, image(diff), {}});
    }
    m_columns = 1 + static_cast<int>(estimates.size());
    for (auto& p : estimates)
        m_panels.push_back(std::move(p));
    for (auto& p : differences)
        m_panels.push_back(std::move(p));
    update();
}

void CovarianceHeatMaps::layoutPanels(QRectF area) {
    // Two rows: truth and estimates on top; the colour bar under the truth, differences under
    // their estimates.
    const double titleH = QFontMetrics(font()).height() + 2, gap = 10; // follows the zoom
    const double cellW = (area.width() - gap * (m_columns - 1)) / m_columns;
    const double cellH = (area.height() - gap) / 2 - titleH;
    const double side = std::max(10.0, std::min(cellW, cellH));
    m_cellWidth = cellW;
    auto slot = [&](int row, int col) {
        return QRectF(area.left() + col * (cellW + gap) + (cellW - side) / 2,
                      area.top() + row * (side + titleH + gap) + titleH, side, side);
    };
    const int estimates = m_columns - 1;
    for (std::size_t k = 0; k < m_panels.size(); ++k) {
        const int idx = static_cast<int>(k);
        m_panels[k].rect = idx == 0           ? slot(0, 0)
                           : idx <= estimates ? slot(0, idx)
                                              : slot(1, idx - estimates);
    }
    // The bar and its labels ("+89.1") centred together under the truth, so the labels stay
    // out of the first difference's column at 200 % (as far as the column is wide enough).
    const QRectF under = slot(1, 0);
    const QFontMetricsF fm(font());
    const double labels = std::max(fm.horizontalAdvance(QString("+%1").arg(m_scale, 0, 'g', 3)),
                                   fm.horizontalAdvance(QString("−%1").arg(m_scale, 0, 'g', 3)));
    const double left =
        std::max(under.center().x() - (22 + labels) / 2, under.center().x() - cellW / 2);
    m_colourBar = QRectF(left, under.top() + 4, 18, under.height() - 8);
}

void CovarianceHeatMaps::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setPen(palette().color(QPalette::Text));
    p.setRenderHint(QPainter::Antialiasing, false);
    const QFontMetrics fm(font());
    // The caption on as many lines as the width needs (one line was cut at both ends at 200 %).
    const int flags = Qt::AlignHCenter | Qt::TextWordWrap;
    const int captionH = fm.boundingRect(QRect(0, 0, width(), 0), flags, m_caption).height();
    p.drawText(QRectF(0, 4, width(), captionH), flags, m_caption);
    if (m_panels.empty())
        return;
    layoutPanels(QRectF(8, captionH + 10, width() - 16, height() - captionH - 18));
    for (const Panel& panel : m_panels) {
        p.drawImage(panel.rect, panel.image); // nearest-neighbour: one square per entry
        p.setPen(QColor(120, 120, 120));
        p.drawRect(panel.rect);
        p.setPen(palette().color(QPalette::Text));
        // The title over the panel's whole column, its font made smaller (to 60 %) before it
        // is cut: "online SGA − S" stays whole at 200 % on a projector.
        const double room = std::max(m_cellWidth, panel.rect.width() + 4);
        QFont titleFont = font();
        const double fit =
            room / std::max(1.0, QFontMetricsF(titleFont).horizontalAdvance(panel.title));
        if (fit < 1.0 && titleFont.pointSizeF() > 0)
            titleFont.setPointSizeF(titleFont.pointSizeF() * std::max(0.6, fit * 0.98));
        p.setFont(titleFont);
        const QFontMetrics tm(titleFont);
        p.drawText(QRectF(panel.rect.center().x() - room / 2, panel.rect.top() - fm.height() - 2,
                          room, fm.height() + 1),
                   Qt::AlignHCenter | Qt::AlignBottom,
                   tm.elidedText(panel.title, Qt::ElideRight, static_cast<int>(room)));
        p.setFont(font());
    }
    // Colour bar: +scale at the top, -scale at the bottom.
    const int h = static_cast<int>(m_colourBar.height());
    for (int y = 0; y < h; ++y) {
        p.setPen(colourOf(m_scale * (1.0 - 2.0 * y / std::max(1, h - 1)), m_scale));
        p.drawLine(QPointF(m_colourBar.left(), m_colourBar.top() + y),
                   QPointF(m_colourBar.right(), m_colourBar.top() + y));
    }
    p.setPen(QColor(120, 120, 120));
    p.drawRect(m_colourBar);
    p.setPen(palette().color(QPalette::Text));
    const double lx = m_colourBar.right() + 4;
    p.drawText(QPointF(lx, m_colourBar.top() + fm.ascent() / 2.0),
               QString("+%1").arg(m_scale, 0, 'g', 3));
    p.drawText(QPointF(lx, m_colourBar.center().y() + fm.ascent() / 2.0), "0");
    p.drawText(QPointF(lx, m_colourBar.bottom() + fm.ascent() / 2.0),
               QString("−%1").arg(m_scale, 0, 'g', 3));
}

void CovarianceHeatMaps::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    for (const Panel& panel : m_panels) {
        if (!panel.rect.contains(pos) || panel.values.size() == 0)
            continue;
        const auto n = panel.values.rows();
        const int r =
            std::clamp(static_cast<int>((pos.y() - panel.rect.top()) / panel.rect.height() * n), 0,
                       int(n) - 1);
        const int c =
            std::clamp(static_cast<int>((pos.x() - panel.rect.left()) / panel.rect.width() * n), 0,
                       int(n) - 1);
        QToolTip::showText(event->globalPosition().toPoint(),
                           QString("%1  [%2, %3] = %4")
                               .arg(panel.title)
                               .arg(r + 1)
                               .arg(c + 1)
                               .arg(panel.values(r, c), 0, 'g', 4),
                           this);
        return;
    }
    QToolTip::hideText();
}

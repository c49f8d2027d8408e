#include "ui/posterior/ComparisonScatter.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/MethodStyle.h"

#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

namespace {
const fa::Vector& pick(ComparisonScatter::Quantity q, const fa::Vector& mean, const fa::Vector& var,
                       const fa::Vector& cov) {
    return q == ComparisonScatter::Quantity::Means       ? mean
           : q == ComparisonScatter::Quantity::Variances ? var
                                                         : cov;
}
} // namespace

ComparisonScatter::ComparisonScatter(Quantity quantity, QWidget* parent)
    : QChartView(parent), m_quantity(quantity), m_x(new QValueAxis), m_y(new QValueAxis),
      m_identity(new QLineSeries) {
    auto* c = new QChart;
    c->setTitle(quantity == Quantity::Means       ? "Posterior means"
                : quantity == Quantity::Variances ? "Posterior variances"
                                                  : "Off-diagonal covariances");
    c->legend()->setAlignment(Qt::AlignBottom); // which colour is which method
    m_x->setTitleText("exact posterior");
    m_y->setTitleText("approximation");
    for (QValueAxis* a : {m_x, m_y}) {
        a->setLabelFormat("%.3g");
        c->addAxis(a, a == m_x ? Qt::AlignBottom : Qt::AlignLeft);
    }
    m_identity->setName("identity");
    m_identity->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
    c->addSeries(m_identity);
    m_identity->attachAxis(m_x);
    m_identity->attachAxis(m_y);
    for (QLegendMarker* marker : c->legend()->markers(m_identity))
        marker->setVisible(false); // the dashed line explains itself (and the tooltip says so)
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(260, 220);
    setToolTip(
        "Each point is one entry: its exact-posterior value (x) against an approximation's (y). "
        "Points on the dashed identity line are exact.");
}

QScatterSeries* ComparisonScatter::seriesFor(const std::string& method) {
    return m_series.get(chart(), m_x, m_y, method, [&] {
        auto* s = new QScatterSeries;
        s->setMarkerSize(7);
        s->setColor(colourFor(method));
        s->setBorderColor(Qt::transparent);
        s->setName(legendName(method));
        return s;
    });
}

QScatterSeries* ComparisonScatter::series(const QString& method) const {
    return m_series.find(method);
}

void ComparisonScatter::showSnapshot(const fa::PosteriorLiveSnapshot& snap) {
    const fa::Vector& truth =
        pick(m_quantity, snap.exactMean, snap.exactVariances, snap.exactCovariances);
    m_series.clearAll();
    double lo = INFINITY, hi = -INFINITY, size = 0.0;
    for (Eigen::Index k = 0; k < truth.size(); ++k)
        lo = std::min(lo, truth(k)), hi = std::max(hi, truth(k)),
        size = std::max(size, std::abs(truth(k)));
    // The truth's range, or its magnitude when it is a single value (one covariance in 2-D).
    const double scale = std::isfinite(hi - lo) ? std::max({hi - lo, size, 1e-300}) : 1.0;
    const double tlo = lo, thi = hi;
    for (const auto& a : snap.approximations) {
        const fa::Vector& est = pick(m_quantity, a.mean, a.variances, a.covariances);
        QList<QPointF> points;
        for (Eigen::Index k = 0; k < truth.size() && k < est.size(); ++k) {
            if (!std::isfinite(est(k)))
                continue;
            points.append(QPointF(truth(k), est(k)));
            // Estimates far off the truth's range stay in the picture up to 3 scales out.
            lo = std::min(lo, std::max(est(k), tlo - 3 * scale));
            hi = std::max(hi, std::min(est(k), thi + 3 * scale));
        }
        seriesFor(fa::methodName(a.method))->replace(points);
    }
    if (!(hi > lo))
        lo -= 0.5 * scale, hi += 0.5 * scale;
    const double pad = 0.06 * (hi - lo);
    m_identity->replace(QList<QPointF>{{lo - pad, lo - pad}, {hi + pad, hi + pad}});
    setRanges(lo - pad, hi + pad);
}

void ComparisonScatter::setRanges(double lo, double hi) {
    // The plot is the view less about 120 px for the axes' labels and titles and the margins.
    setRoundTicks(m_x, lo, hi, width() - 120, 65);
    setRoundTicks(m_y, lo, hi, height() - 120, 40);
}

void ComparisonScatter::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    setRanges(m_x->min(), m_x->max());
}

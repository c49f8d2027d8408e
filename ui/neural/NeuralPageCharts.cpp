// The neural page's live charts: the curves (NMLL, RMSE, coverage over epochs), the predictive
// (over the sorted test points, or over x for a one-input set) and the SGD trajectory plane.
#include "core/metrics/MarginalViews.h"
#include "ui/common/AxisTicks.h"
#include "ui/common/MethodStyle.h"
#include "ui/neural/NeuralPage.h"

#include <QGridLayout>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <cmath>

void NeuralPage::draw(const fa::NeuralLiveSnapshot& s) {
    drawCurves(s);
    drawPredictive(s);
    drawTrajectory(s);
}

void NeuralPage::drawCurves(const fa::NeuralLiveSnapshot& s) {
    for (auto& [k, ser] : m_curves)
        ser->clear();
    double nlo = INFINITY, nhi = -INFINITY, rlo = INFINITY, rhi = -INFINITY;
    for (const auto& m : s.methods) {
        const std::string& name = m.id;
        const QColor colour = colourFor(name);
        QList<QPointF> trainN, testN, trainR, testR, cover;
        for (const auto& p : m.curve) {
            if (!std::isfinite(p.testNmll) || !std::isfinite(p.trainNmll))
                continue;
            const double e = static_cast<double>(p.epoch);
            trainN.append({e, p.trainNmll}), testN.append({e, p.testNmll});
            trainR.append({e, p.trainRmse}), testR.append({e, p.testRmse});
            cover.append({e, p.testCoverage});
            if (p.epoch > 0) { // the untrained start would flatten everything else
                nlo = std::min({nlo, p.trainNmll, p.testNmll}),
                nhi = std::max({nhi, p.trainNmll, p.testNmll});
                rlo = std::min({rlo, p.trainRmse, p.testRmse}),
                rhi = std::max({rhi, p.trainRmse, p.testRmse});
            }
        }
        const QString label = legendName(name);
        series(m_curves, m_nmllChart, name + "/train-nmll", colour, Qt::DashLine, label + " train")
            ->replace(trainN);
        series(m_curves, m_nmllChart, name + "/test-nmll", colour, Qt::SolidLine, label + " test")
            ->replace(testN);
        series(m_curves, m_rmseChart, name + "/train-rmse", colour, Qt::DashLine, label + " train")
            ->replace(trainR);
        series(m_curves, m_rmseChart, name + "/test-rmse", colour, Qt::SolidLine, label + " test")
            ->replace(testR);
        series(m_curves, m_covChart, name + "/coverage", colour, Qt::SolidLine, label)
            ->replace(cover);
    }
    const double maxEpoch = std::max<double>(10, static_cast<double>(s.epoch));
    for (auto [axis, view] : {std::pair{m_nmllX, m_nmllChart}, std::pair{m_rmseX, m_rmseChart},
                              std::pair{m_covX, m_covChart}})
        setRoundTicks(axis, 0, maxEpoch, view->width() - 110, 55); // "0 50 100"
    series(m_curves, m_covChart, "nominal", Qt::gray, Qt::DashLine, "")
        ->replace({{0.0, 0.95}, {maxEpoch, 0.95}});
    if (nhi > nlo) {
        m_nmllY->setRange(nlo - 0.05 * (nhi - nlo), nhi + 0.05 * (nhi - nlo));
        m_nmllY->applyNiceNumbers();
    }
    if (rhi > rlo) {
        m_rmseY->setRange(std::max(0.0, rlo - 0.05 * (rhi - rlo)), rhi + 0.05 * (rhi - rlo));
        m_rmseY->applyNiceNumbers();
    }
}

void NeuralPage::drawPredictive(const fa::NeuralLiveSnapshot& s) {
    for (auto& [k, ser] : m_pred)
        ser->clear();
    const bool overX = s.gridX.size() > 0; // one input: the predictive over x, with the rows
    for (const auto& m : s.methods) {
        const Eigen::Index n = overX ? m.gridMean.size() : m.mean.size();
        const fa::Vector& mu = overX ? m.gridMean : m.mean;
        const fa::Vector& sd = overX ? m.gridSd : m.sd;
        QList<QPointF> mean, lo, hi;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double x = overX ? s.gridX(i) : static_cast<double>(i);
            mean.append({x, mu(i)});
            lo.append({x, mu(i) - 2 * sd(i)});
            hi.append({x, mu(i) + 2 * sd(i)});
        }
        // One legend entry a method (its mean, solid; the dotted band is its ± 2 sd, as the
        // title says): eleven methods' pairs did not fit beside the plot at 200 %.
        const QColor colour = colourFor(m.id);
        series(m_pred, m_predChart, m.id + "/mean", colour, Qt::SolidLine, legendName(m.id))
            ->replace(mean);
        series(m_pred, m_predChart, m.id + "/lo", colour, Qt::DotLine, "")->replace(lo);
        series(m_pred, m_predChart, m.id + "/hi", colour, Qt::DotLine, "")->replace(hi);
    }
    QList<QPointF> truth;
    for (Eigen::Index i = 0; i < s.testTruth.size(); ++i)
        truth.append({overX ? s.testX(i) : static_cast<double>(i), s.testTruth(i)});
    for (Eigen::Index i = 0; overX && i < s.trainX.size(); ++i)
        truth.append({s.trainX(i), s.trainY(i)});
    m_truth->replace(truth);
    m_truth->setName(overX ? "rows (train and test)" : "truth");
    m_predX->setTitleText(overX ? "x (the input)" : "test point (by target)");
    m_predX->setLabelFormat(overX ? "%.2g" : "%.0f");
    if (s.testTruth.size() > 0) {
        const double tlo = std::min(s.testTruth.minCoeff(), overX ? s.trainY.minCoeff() : INFINITY);
        const double thi =
            std::max(s.testTruth.maxCoeff(), overX ? s.trainY.maxCoeff() : -INFINITY);
        const double pad = (overX ? 0.45 : 0.25) * (thi - tlo); // room for the gap's bands
        if (overX)
            m_predX->setRange(s.gridX(0), s.gridX(s.gridX.size() - 1));
        else
            m_predX->setRange(-1, static_cast<double>(s.testTruth.size()));
        m_predY->setRange(tlo - pad, thi + pad);
        m_predY->applyNiceNumbers();
    }
    m_predChart->chart()->setTitle(
        QString(overX ? "%1, network %2 (%3 weights): predictive over x, mean ± 2 sd, and the rows"
                      : "%1, network %2 (%3 weights): test predictive, mean (solid) ± 2 sd "
                        "(dotted), sorted by target")
            .arg(QString::fromStdString(s.dataset), QString::fromStdString(s.hidden))
            .arg(s.parameters));
}

namespace {
/// The 95 % ellipse of N(centre, cov) in the plane (core/metrics/MarginalViews.h).
QList<QPointF> ellipse(const Eigen::Vector2d& centre, const Eigen::Matrix2d& cov) {
    QList<QPointF> out;
    for (const Eigen::Vector2d& p : fa::massEllipse({centre, cov}, 0.95))
        out.append({p(0), p(1)});
    return out;
}
} // namespace

void NeuralPage::drawTrajectory(const fa::NeuralLiveSnapshot& s) {
    const bool shown = s.trajectory.has_value();
    if (shown == m_trajChart->isHidden()) { // the predictive gives it room, or takes it back
        m_liveGrid->addWidget(m_predChart, 1, 0, 1, shown ? 2 : 3);
        m_trajChart->setHidden(!shown);
    }
    if (!shown)
        return;
    const auto& t = *s.trajectory;
    const bool swagOnly = t.method == "swag" || t.method == "multiswag";
    QList<QPointF> points;
    for (Eigen::Index i = 0; i < t.plane.points.rows(); ++i)
        points.append({t.plane.points(i, 0), t.plane.points(i, 1)});
    m_trajPoints->replace(points);
    const QColor colour = colourFor(t.method);
    QColor faded = colour;
    faded.setAlpha(110);
    m_trajPoints->setColor(faded);
    const QList<QPointF> fit = ellipse(Eigen::Vector2d::Zero(), t.plane.fit);
    const QList<QPointF> swag = ellipse(t.plane.swagMean, t.plane.swag);
    m_trajPoints->setName(
        QString("iterates (%1 of %2)").arg(t.plane.points.rows()).arg(t.plane.collected));
    m_fitEllipse->setPen(QPen(t.planeOfSwag ? colourFor("swag") : colour, 2.0));
    m_fitEllipse->setName(t.planeOfSwag ? "SWAG" : legendName(t.method));
    m_fitEllipse->replace(fit);
    m_swagEllipse->setPen(QPen(colourFor("swag"), 2.0, Qt::DashLine));
    m_swagEllipse->setName("SWAG, same iterates");
    m_swagEllipse->replace(swagOnly || t.planeOfSwag ? QList<QPointF>{} : swag);
    m_swagEllipse->setVisible(!(swagOnly || t.planeOfSwag));
    // Each axis its own range (the second direction is often much the narrower).
    double reachX = 1e-12, reachY = 1e-12;
    for (const QList<QPointF>* list :
         std::initializer_list<const QList<QPointF>*>{&points, &fit, &swag})
        for (const QPointF& p : *list)
            reachX = std::max(reachX, std::abs(p.x())), reachY = std::max(reachY, std::abs(p.y()));
    m_trajX->setRange(-1.05 * reachX, 1.05 * reachX);
    m_trajY->setRange(-1.05 * reachY, 1.05 * reachY);
    // Short, with the key (the chart is a third of the width: a legend would be cut).
    m_trajChart->chart()->setTitle(
        t.planeOfSwag
            ? QString("Iterates, SWAG's 95 % (%1 warms up)").arg(legendName(t.method))
            : (swagOnly ? QString("Iterates, %1's 95 % ellipse").arg(legendName(t.method))
                        : QString("%1 (solid), SWAG (dashed), 95 %").arg(legendName(t.method))));
}

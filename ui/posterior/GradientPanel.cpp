#include "ui/posterior/GradientPanel.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/BackgroundJob.h"
#include "ui/common/ChartFrame.h"
#include "ui/common/ChartTitle.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <cmath>
#include <utility>

namespace {

const std::array<QColor, 3> kColours = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                        QColor(0x2c, 0xa0, 0x2c)};

// A padded range around the cloud, in units of 10^k so that the tick labels stay short (a score
// function's cloud spans 10^4); the unit goes into the axis title.
/// Returns the unit's suffix (" (×10^k)", or empty), which the chart's title repeats: a
/// cramped chart (200 %) drops its axis titles, never its title.
QString fitAxes(QValueAxis* x, QValueAxis* y, std::vector<Eigen::Vector2d>& points,
                const QString& xName, const QString& yName) {
    double top = 0.0;
    for (const auto& p : points)
        top = std::max(top, p.cwiseAbs().maxCoeff());
    const int k = top > 0.0 ? int(std::floor(std::log10(top))) : 0;
    const double unit = std::abs(k) >= 2 ? std::pow(10.0, k) : 1.0;
    for (auto& p : points)
        p /= unit;
    const QString suffix = unit == 1.0 ? QString() : QString(" (×10^%1)").arg(k);
    x->setTitleText(xName + suffix);
    y->setTitleText(yName + suffix);
    double hx = 0.0, hy = 0.0, cx = 0.0, cy = 0.0;
    for (const auto& p : points)
        cx += p.x() / double(points.size()), cy += p.y() / double(points.size());
    for (const auto& p : points)
        hx = std::max(hx, std::abs(p.x() - cx)), hy = std::max(hy, std::abs(p.y() - cy));
    hx = hx > 0.0 ? 1.1 * hx : 1.0, hy = hy > 0.0 ? 1.1 * hy : 1.0;
    x->setRange(cx - hx, cx + hx);
    y->setRange(cy - hy, cy + hy);
    return suffix;
}

} // namespace

GradientPanel::GradientPanel(QWidget* parent)
    : QWidget(parent), m_lx(new QLogValueAxis), m_ly(new QLogValueAxis), m_kly(new QLogValueAxis),
      m_klx(new QValueAxis), m_note(new QLabel), m_familyNote(new QLabel), m_family(new QComboBox),
      m_job(new BackgroundJob(this)) {
    auto* layout = new QVBoxLayout(this);
    m_note->setWordWrap(true);
    m_note->setText("Choose “VI, full covariance” or “VI, mean field” to see how noisy each "
                    "gradient estimator is at the fit's current q.");
    layout->addWidget(makeFamilyRow());
    layout->addLayout(makeClouds(), 1);
    layout->addWidget(m_familyNote);
    m_varianceView = makeVarianceView();
    m_klView = makeKlView();
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_varianceView, 1);
    bottom->addWidget(m_klView, 1);
    layout->addLayout(bottom, 1);
    setFamily(0);
}

QGridLayout* GradientPanel::makeClouds() {
    auto* clouds = new QGridLayout;
    for (std::size_t k = 0; k < 3; ++k) {
        auto* c = new QChart;
        c->legend()->hide();
        auto* s = new QScatterSeries;
        s->setMarkerSize(5);
        s->setColor(kColours[k]);
        s->setBorderColor(Qt::transparent);
        c->addSeries(s);
        auto *x = new QValueAxis, *y = new QValueAxis;
        x->setLabelFormat("%.2g"); // three ticks: the labels of a wide cloud fit 220 px
        y->setLabelFormat("%.2g");
        x->setTickCount(3);
        y->setTickCount(3);
        c->addAxis(x, Qt::AlignBottom);
        c->addAxis(y, Qt::AlignLeft);
        s->attachAxis(x);
        s->attachAxis(y);
        c->setTitle(kEstimatorLabels[k]);
        auto* view = new QChartView(c);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(220, 200);
        view->setToolTip("Independent estimates of the −ELBO gradient with respect to the mean, "
                         "in the two parameters of the contour view, each from L draws. The "
                         "spread is the estimator's noise; the centre, its mean, is the true "
                         "gradient (near 0 at the optimum).");
        clouds->addWidget(view, 0, int(k));
        m_cloudViews[k] = view;
        m_clouds[k] = s;
        m_cloudAxes[2 * k] = x, m_cloudAxes[2 * k + 1] = y;
    }
    return clouds;
}

QChartView* GradientPanel::makeVarianceView() {
    m_lx->setRange(0.7, 150);
    m_ly->setMinorTickCount(8);
    auto* c = framedChart(
        "Total variance against draws L<br>(mean solid, scale dashed; colours as above)", m_lx,
        {"draws per estimate L", "%g"}, m_ly, {"total variance", "%g"});
    for (std::size_t k = 0; k < 3; ++k)
        for (const bool scale : {false, true}) {
            auto* line = new QLineSeries;
            QPen pen(kColours[k], 2.0);
            if (scale)
                pen.setStyle(Qt::DashLine);
            line->setPen(pen);
            line->setPointsVisible(true);
            line->setName(QString("%1, %2").arg(kEstimatorLabels[k], scale ? "scale" : "mean"));
            c->addSeries(line);
            line->attachAxis(m_lx);
            line->attachAxis(m_ly);
            (scale ? m_scaleLines : m_meanLines)[k] = line;
        }
    c->legend()->hide(); // the clouds' titles name the colours
    auto* view = new QChartView(c);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 220);
    view->setToolTip("Each estimator's variance falls as 1/L; the score function's starts "
                     "orders of magnitude higher, and a baseline brings most of it back.");
    return view;
}

QChartView* GradientPanel::makeKlView() {
    m_kly->setMinorTickCount(8);
    m_kly->setRange(1e-3, 10);
    auto* k =
        framedChart("KL(q‖p) = log evidence − ELBO<br>over epochs, by estimator (colours as above)",
                    m_klx, {"epoch", "%.0f"}, m_kly, {"KL(q‖p)", "%g"});
    for (std::size_t e = 0; e < 3; ++e) {
        auto* line = new QLineSeries;
        line->setPen(QPen(kColours[e], 1.6));
        line->setName(kEstimatorLabels[e]);
        k->addSeries(line);
        line->attachAxis(m_klx);
        line->attachAxis(m_kly);
        m_klLines[e] = line;
    }
    k->legend()->hide();
    auto* klView = new QChartView(k);
    klView->setRenderHint(QPainter::Antialiasing);
    klView->setMinimumSize(300, 220);
    klView->setToolTip("Tick “compare the three estimators” under Variational fits to run the "
                       "same fit with each estimator (same seed, same steps) side by side. "
                       "Known where the exact posterior is: linear regression with the "
                       "Gaussian prior, or a grid target.");
    return klView;
}

void GradientPanel::showSnapshot(const fa::PosteriorLiveSnapshot& snapshot) {
    showKl(snapshot);
    if (snapshot.gradients == m_shown && m_shown)
        return; // studies are renewed every 2 s; frames in between show the same one
    if (family() != 0)
        return; // the chart shows a family's study
    m_shown = snapshot.gradients;
    const fa::GradientStudy* study = m_shown.get();
    if (!study) {
        clearStudy();
        m_note->setText("Choose “VI, full covariance” or “VI, mean field” to see how noisy each "
                        "gradient estimator is at the fit's current q.");
        return;
    }
    m_note->setText(QString("%1 at epoch %2: %3 estimates per estimator, each from L = %4 draws, "
                            "of the −ELBO gradient with respect to the mean (θ%5, θ%6).")
                        .arg(QString::fromStdString(fa::methodName(study->method)))
                        .arg(study->epoch)
                        .arg(study->estimators.empty() ? 0 : study->estimators[0].cloud.size())
                        .arg(study->samples)
                        .arg(study->coordI + 1)
                        .arg(study->coordJ + 1));
    double lo = INFINITY, hi = 0.0;
    for (std::size_t k = 0; k < study->estimators.size() && k < 3; ++k) {
        const auto& e = study->estimators[k];
        std::vector<Eigen::Vector2d> scaled = e.cloud;
        const QString unit = fitAxes(m_cloudAxes[2 * k], m_cloudAxes[2 * k + 1], scaled,
                                     QString("∂/∂m%1").arg(study->coordI + 1),
                                     QString("∂/∂m%1").arg(study->coordJ + 1));
        QList<QPointF> points;
        for (const auto& p : scaled)
            points.append({p.x(), p.y()});
        m_clouds[k]->replace(points);
        double spread = 0.0; // root mean square distance from the cloud's centre
        Eigen::Vector2d centre = Eigen::Vector2d::Zero();
        for (const auto& p : e.cloud)
            centre += p / double(e.cloud.size());
        for (const auto& p : e.cloud)
            spread += (p - centre).squaredNorm() / double(e.cloud.size());
        // Two lines: one cut at 200 % lost the unit "(×10^k)" that the hidden axis title
        // carried too.
        m_cloudViews[k]->chart()->setTitle(QString("%1<br>spread %2%3")
                                               .arg(kEstimatorLabels[k])
                                               .arg(std::sqrt(spread), 0, 'g', 2)
                                               .arg(unit));
        for (const bool scale : {false, true}) {
            QList<QPointF> line;
            const auto& v = scale ? e.scaleVariance : e.meanVariance;
            for (std::size_t i = 0; i < v.size(); ++i)
                if (std::isfinite(v[i]) && v[i] > 0.0) {
                    line.append({double(e.sampleCounts[i]), v[i]});
                    lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
                }
            (scale ? m_scaleLines : m_meanLines)[k]->replace(line);
        }
    }
    if (hi > 0.0)
        m_ly->setRange(std::pow(10.0, std::floor(std::log10(lo))),
                       std::pow(10.0, std::ceil(std::log10(hi))));
}

void GradientPanel::showKl(const fa::PosteriorLiveSnapshot& snapshot) {
    double lo = INFINITY, hi = 0.0;
    long last = 10;
    std::array<bool, 3> drawn{};
    for (const auto& c : snapshot.estimatorCurves) {
        const auto k = static_cast<std::size_t>(c.estimator);
        QList<QPointF> line;
        for (const auto& [epoch, kl] : c.kl)
            if (kl > 0.0) {
                line.append({double(epoch), kl});
                lo = std::min(lo, kl), hi = std::max(hi, kl);
                last = std::max(last, epoch);
            }
        m_klLines[k]->replace(line);
        drawn[k] = true;
    }
    for (std::size_t k = 0; k < 3; ++k)
        if (!drawn[k])
            m_klLines[k]->clear();
    setRoundTicks(m_klx, 0, double(last), 300, 60);
    if (hi > 0.0)
        m_kly->setRange(std::pow(10.0, std::floor(std::log10(std::max(lo, hi * 1e-8)))),
                        std::pow(10.0, std::ceil(std::log10(hi))));
}

void GradientPanel::clearStudy() {
    for (QScatterSeries* s : m_clouds)
        s->clear();
    for (auto* lines : {&m_meanLines, &m_scaleLines})
        for (QLineSeries* l : *lines)
            l->clear();
}

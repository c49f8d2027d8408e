#include "ui/posterior/BoundChart.h"

#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <cmath>

BoundChart::BoundChart(QWidget* parent)
    : QWidget(parent), m_elboFull(new QLineSeries), m_evFull(new QLineSeries),
      m_elboMf(new QLineSeries), m_evMf(new QLineSeries), m_x(new QValueAxis), m_y(new QValueAxis),
      m_note(new QLabel) {
    auto* c = new QChart;
    c->setTitle("α and β learned through the bound: the ELBO and the log evidence at the same "
                "α, β, by iteration");
    const auto style = [&](QLineSeries* s, QColor colour, bool dashed, const QString& name) {
        QPen pen(colour, 2.0);
        if (dashed)
            pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        s->setName(name);
        c->addSeries(s);
    };
    style(m_evFull, QColor(0x14, 0x14, 0x14), false, "log evidence (full q's α, β)");
    style(m_elboFull, QColor(0x1f, 0x77, 0xb4), false, "ELBO, full covariance");
    style(m_evMf, QColor(0x7f, 0x7f, 0x7f), true, "log evidence (mean field's α, β)");
    style(m_elboMf, QColor(0xbc, 0xbd, 0x22), true, "ELBO, mean field");
    m_x->setTitleText("iteration (q, then α and β, each exact)");
    m_x->setLabelFormat("%.0f");
    m_y->setTitleText("nats");
    m_y->setLabelFormat("%.6g");
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    for (QLineSeries* s : {m_evFull, m_elboFull, m_evMf, m_elboMf}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    c->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(c);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(400, 300);
    view->setToolTip("Coordinate ascent of the ELBO over q and (α, β) from α = β = 1: "
                     "q given α, β is the posterior (full) or m = μ, σᵢ² = 1/Λᵢᵢ (mean field); "
                     "α, β given q are D / E|w|² and N / E|y − Xw|². The gap between a bound "
                     "and its evidence is KL(q‖posterior).");
    m_note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(view, 1);
}

void BoundChart::showSnapshot(const fa::PosteriorLiveSnapshot& snapshot) {
    if (snapshot.boundFull == m_shown && m_shown)
        return; // computed once per run
    m_shown = snapshot.boundFull;
    for (QLineSeries* s : {m_evFull, m_elboFull, m_evMf, m_elboMf})
        s->clear();
    if (!snapshot.boundFull || !snapshot.boundMeanField) {
        m_note->setText("For linear regression with its closed-form evidence only (and data "
                        "small enough to iterate at once).");
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    const auto fill = [&](const std::vector<fa::BoundStep>& steps, QLineSeries* elbo,
                          QLineSeries* ev) {
        QList<QPointF> e, v;
        for (const auto& s : steps) {
            e.append({double(s.iteration), s.elbo});
            v.append({double(s.iteration), s.logEvidence});
            if (s.iteration >= 3) // the first steps climb far: fit the range to the rest
                lo = std::min({lo, s.elbo, s.logEvidence}),
                hi = std::max({hi, s.elbo, s.logEvidence});
        }
        elbo->replace(e);
        ev->replace(v);
    };
    fill(*snapshot.boundFull, m_elboFull, m_evFull);
    fill(*snapshot.boundMeanField, m_elboMf, m_evMf);
    const double pad = 0.05 * std::max(hi - lo, 1e-9);
    m_y->setRange(lo - pad, hi + pad);
    m_x->setRange(0, double(snapshot.boundFull->back().iteration));
    const auto& f = snapshot.boundFull->back();
    const auto& m = snapshot.boundMeanField->back();
    m_note->setText(QString("Full covariance ends at α = %1, β = %2 with the bound on the "
                            "evidence (gap %3); mean field at α = %4, β = %5, %6 nats below "
                            "its evidence (KL_min). Lab in use: α = %7, β = %8 (%9).")
                        .arg(f.hyper.alpha, 0, 'g', 5)
                        .arg(f.hyper.beta, 0, 'g', 5)
                        .arg(f.logEvidence - f.elbo, 0, 'g', 2)
                        .arg(m.hyper.alpha, 0, 'g', 5)
                        .arg(m.hyper.beta, 0, 'g', 5)
                        .arg(m.logEvidence - m.elbo, 0, 'g', 3)
                        .arg(snapshot.hyper.alpha, 0, 'g', 5)
                        .arg(snapshot.hyper.beta, 0, 'g', 5)
                        .arg(QString::fromStdString(fa::hyperModeName(snapshot.hyperMode))));
}

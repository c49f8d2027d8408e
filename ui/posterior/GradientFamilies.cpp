// The gradient panel's families beyond the Gaussian (issue 28 item 2; docs/maths/posterior.md
// §4.7): the choice, and each family's grad-variance study run off the window's thread and drawn
// in the variance view.
#include "ui/posterior/GradientPanel.h"

#include "ui/common/BackgroundJob.h"
#include "ui/session/PosteriorSessionFile.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <algorithm>
#include <cmath>
#include <utility>

namespace {

/// The families beyond the Gaussian: the combo's label, grad-variance's data set and method,
/// and what the panel says of it (docs/maths/posterior.md §4.7).
struct Family {
    const char *label, *dataset, *method, *note;
};
constexpr std::array<Family, 3> kFamilies{{
    {"gamma q on a Poisson rate", "poisson-synthetic", "vi-gamma",
     "A Poisson rate λ with a gamma prior, 30 counts; q(λ) a gamma, at the exact posterior "
     "(where the true gradient is 0). The reparameterised estimator is the implicit one (the "
     "gamma's CDF held fixed as the shape moves): exact in distribution. Blocks: log shape "
     "(solid) and log rate (dashed); 1000 estimates per point."},
    {"exponential q on a Poisson rate", "poisson-synthetic", "vi-exponential",
     "The same Poisson rate; q(λ) an exponential (a gamma of shape 1), λ = −log(u) / rate, at "
     "its best rate. Its draws spread far wider than the posterior, so even the "
     "reparameterised gradient is noisy. One block, log rate (solid); 1000 estimates per point."},
    {"Bernoulli latents (score only)", "bernoulli-latent", "vi-bernoulli",
     "20 rows of a two-component mixture, each row's component a Bernoulli q with its own logit, "
     "at the exact posterior. A discrete draw is no differentiable function of the logits, so "
     "there is no reparameterisation: only the score function, with and without the "
     "leave-one-out baseline. One block, the logits (solid); 1000 estimates per point."},
}};
static_assert(kFamilies.size() + 1 == fa::io::kGradientFamilies.size(),
              "the session's family words: the live Gaussian, then these");

} // namespace

QWidget* GradientPanel::makeFamilyRow() {
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_family->addItem("Gaussian q of the live fit");
    for (const Family& f : kFamilies)
        m_family->addItem(f.label);
    m_family->setToolTip("Which q's gradient estimators to study: the live VI fit's Gaussian, or "
                         "a family beyond the Gaussian on a target of its own.");
    h->addWidget(new QLabel("Family:"));
    h->addWidget(m_family);
    h->addWidget(m_note, 1);
    m_familyNote->setWordWrap(true);
    m_familyNote->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    connect(m_family, &QComboBox::currentIndexChanged, this, [this](int f) { setFamily(f); });
    connect(m_job, &BackgroundJob::finished, this, [this](bool, const QString& error) {
        if (!error.isEmpty())
            m_note->setText("The study could not be computed: " + error);
        if (std::exchange(m_restudy, false))
            studyFamily();
    });
    return row;
}

int GradientPanel::family() const {
    return m_family->currentIndex();
}

bool GradientPanel::pending() const {
    return m_job->running() || m_restudy;
}

void GradientPanel::setFamily(int f) {
    if (f < 0 || f > int(kFamilies.size()))
        return;
    const QSignalBlocker block(m_family);
    m_family->setCurrentIndex(f);
    const bool live = f == 0;
    for (QChartView* v : m_cloudViews)
        v->setVisible(live);
    m_klView->setVisible(live);
    m_familyNote->setVisible(!live);
    m_varianceView->chart()->legend()->setVisible(!live);
    m_shown.reset(); // the next snapshot draws its study again
    m_rows.clear();
    clearStudy();
    if (live) {
        m_varianceView->chart()->setTitle(
            "Total variance against draws L<br>(mean solid, scale dashed; colours as above)");
        m_note->setText("Waiting for the next study of the live fit…");
        return;
    }
    m_familyNote->setText(kFamilies[std::size_t(f - 1)].note);
    m_varianceView->chart()->setTitle(QString("%1: total variance of the ELBO gradient against "
                                              "draws L")
                                          .arg(kFamilies[std::size_t(f - 1)].label));
    studyFamily();
}

void GradientPanel::studyFamily() {
    if (m_job->running()) { // its rows are dropped: the family has changed; once it ends,
        m_restudy = true;   // the family chosen then is studied
        m_job->cancel();
        return;
    }
    const int f = family();
    if (f == 0)
        return;
    m_note->setText("Computing…");
    fa::ScalarGradVarianceConfig c;
    c.dataset = kFamilies[std::size_t(f - 1)].dataset;
    c.method = kFamilies[std::size_t(f - 1)].method;
    if (c.dataset == std::string("bernoulli-latent"))
        c.estimators = {fa::GradientEstimator::Score, fa::GradientEstimator::ScoreBaseline};
    m_job->start([this, c, f](const std::atomic<bool>& cancel) {
        auto rows = fa::runScalarGradVariance(c);
        if (!cancel.load())
            m_job->deliver([this, rows = std::move(rows), f] {
                if (family() != f)
                    return;
                m_rows = rows;
                showFamily();
                emit familyShown();
            });
    });
}

void GradientPanel::showFamily() {
    clearStudy();
    std::vector<std::string> blocks; // in the rows' order: the first solid, the second dashed
    double lo = INFINITY, hi = 0.0;
    for (const fa::GradVarianceRow& r : m_rows) {
        auto b = std::find(blocks.begin(), blocks.end(), r.block);
        if (b == blocks.end())
            b = blocks.insert(blocks.end(), r.block);
        const auto e = fa::parseEstimator(r.estimator);
        if (!e || b - blocks.begin() > 1 || !(r.variance > 0.0))
            continue;
        const auto k = static_cast<std::size_t>(*e);
        QLineSeries* line = (b == blocks.begin() ? m_meanLines : m_scaleLines)[k];
        line->setName(kEstimatorLabels[k]); // the blocks' styles are in the note
        line->append(double(r.samples), r.variance);
        lo = std::min(lo, r.variance), hi = std::max(hi, r.variance);
    }
    // One legend entry an estimator (its first block's line): three names fit at 200 %.
    for (QLegendMarker* marker : m_varianceView->chart()->legend()->markers()) {
        const auto* line = static_cast<QLineSeries*>(marker->series());
        const bool first =
            std::find(m_meanLines.begin(), m_meanLines.end(), line) != m_meanLines.end();
        marker->setVisible(first && line->count() > 0);
    }
    if (hi > 0.0)
        m_ly->setRange(std::pow(10.0, std::floor(std::log10(lo))),
                       std::pow(10.0, std::ceil(std::log10(hi))));
    m_note->setText(QString("%1 estimates per point, at the exact optimum.")
                        .arg(fa::ScalarGradVarianceConfig{}.trials));
}

#include "ui/posterior/GpPanel.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/BackgroundJob.h"
#include "ui/common/ChartFrame.h"
#include "ui/common/ChartTitle.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

namespace {

QColor kernelColour(fa::GpKernel k) {
    switch (k) {
    case fa::GpKernel::SquaredExp:
        return {0x1f, 0x77, 0xb4};
    case fa::GpKernel::Linear:
        return {0x7f, 0x7f, 0x7f};
    case fa::GpKernel::NnErf:
        return {0xd6, 0x27, 0x28};
    case fa::GpKernel::NnRelu:
        return {0x2c, 0xa0, 0x2c};
    }
    return Qt::black;
}

QString kernelLabel(fa::GpKernel k) {
    switch (k) {
    case fa::GpKernel::SquaredExp:
        return "squared exp.";
    case fa::GpKernel::Linear:
        return "linear (BLR)";
    case fa::GpKernel::NnErf:
        return "network, erf";
    case fa::GpKernel::NnRelu:
        return "network, ReLU";
    }
    return {};
}

QList<QPointF> points(const fa::Vector& x, const fa::Vector& y) {
    QList<QPointF> out;
    for (Eigen::Index i = 0; i < x.size(); ++i)
        out.append({x(i), y(i)});
    return out;
}

} // namespace

GpPanel::GpPanel(QWidget* parent)
    : QWidget(parent), m_units(new QComboBox), m_hidden(new QComboBox),
      m_redraw(new QPushButton("New draws")), m_note(new QLabel),
      m_predictive(new LessonChart("x (the input)", "y")),
      m_draws(new LessonChart("x (the input)", "f(x)")), m_cx(new QLogValueAxis),
      m_cy(new QValueAxis), m_job(new BackgroundJob(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makeFields());
    auto* grid = new QGridLayout;
    grid->addWidget(m_predictive, 0, 0, 1, 2);
    grid->addWidget(m_draws, 1, 0);
    grid->addWidget(makeConvergence(), 1, 1);
    grid->setRowStretch(0, 3); // the predictive is the widest story; at 200 % it needs the room
    grid->setRowStretch(1, 2);
    grid->setColumnStretch(0, 1); // the draws as wide as the convergence beside them
    grid->setColumnStretch(1, 1);
    for (LessonChart* chart : {m_predictive, m_draws}) {
        chart->chart()->legend()->setAlignment(Qt::AlignRight);
        chart->setMinimumSize(300, 160);
    }
    layout->addLayout(grid, 1);
    m_predictive->setToolTip(
        "The in-between set's 100 rows and, for each kernel, the GP's predictive of a new y "
        "(mean solid, ± 2 sd dotted), hyperparameters by the log marginal likelihood. The "
        "linear kernel is Bayesian linear regression; the others widen in the gap.");
    m_draws->setToolTip("Prior functions: random networks with H hidden units (solid) and the GP "
                        "with the same network's kernel (dashed). At H = 1 a network is one "
                        "step or hinge; as H grows its draws look like the GP's.");
    m_predictive->fit(-2.5, 2.5, -3.0, 3.0); // round ticks before the first lesson
    m_draws->fit(-2.5, 2.5, -2.0, 2.0);
    setRoundTicks(m_cy, -0.1, 1.2, 200.0, 35.0);
    connect(m_job, &BackgroundJob::finished, this, [this](bool, const QString& error) {
        if (!error.isEmpty())
            m_note->setText("The lesson could not be computed: " + error);
        if (std::exchange(m_again, false))
            recompute();
        else
            m_waiting = false; // cancelled or failed: nothing more will come
    });
    const auto changed = [this] {
        m_stale = true;
        if (isVisible())
            recompute();
    };
    connect(m_units, &QComboBox::currentIndexChanged, this, changed);
    connect(m_hidden, &QComboBox::currentIndexChanged, this, changed);
    connect(m_redraw, &QPushButton::clicked, this, [this, changed] {
        ++m_seed;
        changed();
    });
}

GpPanel::~GpPanel() = default;

QWidget* GpPanel::makeFields() {
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_units->addItem("erf units", QString("nn-erf"));
    m_units->addItem("ReLU units", QString("nn-relu"));
    m_units->setToolTip("The hidden units of the drawn networks, and so the GP kernel beside "
                        "them (Williams 1997 for erf, the arc-cosine kernel for ReLU).");
    for (int width : fa::kLessonDrawWidths)
        m_hidden->addItem(QString("H = %1").arg(width), width);
    m_hidden->setCurrentIndex(1);
    m_hidden->setToolTip("Hidden units of the drawn networks; output weights ~ N(0, σ_v² / H).");
    m_redraw->setToolTip("Draw other networks and other GP functions (a new seed).");
    m_note->setWordWrap(true);
    m_note->setText("Computing…");
    h->addWidget(new QLabel("Networks with"));
    h->addWidget(m_units);
    h->addWidget(m_hidden);
    h->addWidget(m_redraw);
    h->addWidget(m_note, 1);
    return row;
}

QChartView* GpPanel::makeConvergence() {
    m_cx->setBase(10);
    m_cx->setRange(0.7, 1500);
    auto* c =
        framedChart("Over H: covariance of f(x₁), f(x₂) ÷ kernel, and excess kurtosis of f(x₁)",
                    m_cx, {"hidden units H", "%g"}, m_cy, {"ratio, kurtosis", "%.2g"});
    const auto add = [&](QLineSeries* s, const QPen& pen, const QString& name) {
        s->setPen(pen);
        s->setName(name);
        c->addSeries(s);
        s->attachAxis(m_cx);
        s->attachAxis(m_cy);
        return s;
    };
    const QColor ratio(0x1f, 0x77, 0xb4), kurt(0xd6, 0x27, 0x28);
    m_ratio = add(new QLineSeries, QPen(ratio, 2.0), "covariance ÷ kernel");
    m_ratio->setPointsVisible(true);
    m_ratioLo = add(new QLineSeries, QPen(ratio, 1.0, Qt::DotLine), "± 2 SE");
    m_ratioHi = add(new QLineSeries, QPen(ratio, 1.0, Qt::DotLine), "");
    m_kurtosis = add(new QLineSeries, QPen(kurt, 2.0), "excess kurtosis");
    m_kurtosis->setPointsVisible(true);
    m_one = add(new QLineSeries, QPen(Qt::gray, 1.0, Qt::DashLine), "");
    for (QLineSeries* s : {m_ratioHi, m_one})
        for (QLegendMarker* marker : c->legend()->markers(s))
            marker->setVisible(false);
    m_convergence = new QChartView(c);
    m_convergence->setRenderHint(QPainter::Antialiasing);
    m_convergence->setMinimumSize(300, 160);
    c->legend()->setAlignment(Qt::AlignRight);
    m_convergence->setToolTip(
        "Over 20 000 random networks per H, at x₁ = −0.5 and x₂ = 1: the covariance of f(x₁) and "
        "f(x₂) divided by the kernel is 1 at every H (the 1/H in the output weights' variance "
        "sees to that); what the limit changes is the shape: f(x₁)'s excess kurtosis, 0 for a "
        "Gaussian, falls like 1/H.");
    return m_convergence;
}

fa::GpLessonConfig GpPanel::config() const {
    fa::GpLessonConfig c;
    c.units = m_units->currentIndex() == 1 ? fa::GpKernel::NnRelu : fa::GpKernel::NnErf;
    c.hidden = m_hidden->currentData().toInt();
    c.seed = m_seed;
    return c;
}

void GpPanel::setConfig(const fa::GpLessonConfig& config) {
    const QSignalBlocker a(m_units), b(m_hidden);
    if (config.units == fa::GpKernel::NnErf || config.units == fa::GpKernel::NnRelu)
        m_units->setCurrentIndex(config.units == fa::GpKernel::NnRelu ? 1 : 0);
    if (const int i = m_hidden->findData(config.hidden); i >= 0)
        m_hidden->setCurrentIndex(i);
    m_seed = config.seed;
    m_stale = true;
    if (isVisible())
        recompute();
}

bool GpPanel::pending() const {
    return m_waiting || m_stale || m_again;
}

void GpPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        recompute();
}

void GpPanel::recompute() {
    if (m_job->running()) { // once it ends, with the fields as they are then
        m_again = true;
        m_job->cancel();
        return;
    }
    m_stale = false;
    m_waiting = true;
    m_note->setText("Computing…");
    const fa::GpLessonConfig c = config();
    m_job->start([this, c, previous = m_lesson](const std::atomic<bool>& cancel) {
        auto lesson =
            std::make_shared<const fa::GpLesson>(fa::gpLesson(c, &cancel, previous.get()));
        if (!cancel.load())
            m_job->deliver([this, lesson] {
                m_lesson = lesson;
                m_waiting = false;
                show(*lesson);
                emit computed();
            });
    });
}

std::vector<std::pair<QString, QWidget*>> GpPanel::charts() const {
    return {{"gp-predictive", m_predictive},
            {"gp-width-draws", m_draws},
            {"gp-width-convergence", m_convergence}};
}

void GpPanel::show(const fa::GpLesson& lesson) {
    m_predictive->clearAll();
    m_predictive->scatter("rows", Qt::black, 5, "rows")
        ->replace(points(lesson.trainX, lesson.trainY));
    double lo = lesson.trainY.minCoeff(), hi = lesson.trainY.maxCoeff();
    for (const fa::GpLessonBand& b : lesson.bands) {
        if (!b.ok)
            continue;
        const std::string key = fa::gpKernelName(b.kernel);
        const QColor colour = kernelColour(b.kernel);
        const fa::Vector up = b.mean + 2.0 * b.sd, down = b.mean - 2.0 * b.sd;
        m_predictive
            ->line(key, QPen(colour, 2.0),
                   QString("%1 (%2)").arg(kernelLabel(b.kernel)).arg(b.logMarginal, 0, 'f', 1))
            ->replace(points(lesson.gridX, b.mean));
        m_predictive->line(key + "/hi", QPen(colour, 1.2, Qt::DotLine), "")
            ->replace(points(lesson.gridX, up));
        m_predictive->line(key + "/lo", QPen(colour, 1.2, Qt::DotLine), "")
            ->replace(points(lesson.gridX, down));
        lo = std::min(lo, down.minCoeff()), hi = std::max(hi, up.maxCoeff());
    }
    m_predictive->endFrame();
    m_predictive->fit(lesson.gridX(0), lesson.gridX(lesson.gridX.size() - 1), lo, hi);
    m_predictive->setTitle("In-between set: GP predictive, mean ± 2 sd (each kernel's log "
                           "marginal likelihood)");

    m_draws->clearAll();
    const QColor net(0x1f, 0x77, 0xb4), gp(0xff, 0x7f, 0x0e);
    double dlo = 0.0, dhi = 0.0;
    for (Eigen::Index d = 0; d < lesson.networkDraws.cols(); ++d) {
        m_draws
            ->line("net" + std::to_string(d), QPen(net, 1.6),
                   d == 0 ? QString("networks, H = %1").arg(lesson.config.hidden) : "")
            ->replace(points(lesson.gridX, lesson.networkDraws.col(d)));
        m_draws
            ->line("gp" + std::to_string(d), QPen(gp, 1.6, Qt::DashLine),
                   d == 0 ? QString("GP, H → ∞") : "")
            ->replace(points(lesson.gridX, lesson.gpDraws.col(d)));
    }
    for (const fa::Matrix* m : {&lesson.networkDraws, &lesson.gpDraws})
        dlo = std::min(dlo, m->minCoeff()), dhi = std::max(dhi, m->maxCoeff());
    m_draws->endFrame();
    m_draws->fit(lesson.gridX(0), lesson.gridX(lesson.gridX.size() - 1), dlo, dhi);
    m_draws->setTitle(QString("Prior functions: %1 networks with H = %2 %3 units, and the GP")
                          .arg(lesson.networkDraws.cols())
                          .arg(lesson.config.hidden)
                          .arg(lesson.config.units == fa::GpKernel::NnRelu ? "ReLU" : "erf"));
    showConvergence(lesson);
    m_note->setText(QString("Bands: the 100 rows of the in-between set. Draws: seed %1.")
                        .arg(lesson.config.seed));
}

void GpPanel::showConvergence(const fa::GpLesson& lesson) {
    QList<QPointF> ratio, rlo, rhi, kurt;
    double lo = 0.0, hi = 1.2;
    for (const fa::CovarianceCheck& c : lesson.convergence) {
        const double h = c.hidden, r = c.empirical / c.kernel, se = c.stdErr / std::abs(c.kernel);
        ratio.append({h, r});
        rlo.append({h, r - 2.0 * se});
        rhi.append({h, r + 2.0 * se});
        kurt.append({h, c.excessKurtosis});
        lo = std::min({lo, r - 2.0 * se, c.excessKurtosis});
        hi = std::max({hi, r + 2.0 * se, c.excessKurtosis});
    }
    m_ratio->replace(ratio);
    m_ratioLo->replace(rlo);
    m_ratioHi->replace(rhi);
    m_kurtosis->replace(kurt);
    m_one->replace(QList<QPointF>{{0.7, 1.0}, {1500.0, 1.0}});
    setRoundTicks(m_cy, lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo),
                  m_convergence->height() - 110.0, 35.0);
    fitTitle(m_convergence->chart(),
             QString("Over H (%1 networks each): covariance of f(x₁), f(x₂) ÷ kernel, "
                     "and excess kurtosis of f(x₁)")
                 .arg(lesson.config.checkDraws),
             m_convergence->width());
}

#include "ui/latent/LatentPage.h"

#include "core/fa/OnlineFitter.h"
#include "core/io/RegressionCsv.h"
#include "core/math/Rng.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/MethodStyle.h"
#include "ui/common/ModeLayout.h"
#include "ui/latent/LatentPictureViews.h"
#include "ui/latent/LatentViews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

LatentPage::LatentPage(QWidget* parent)
    : LabPageOf(parent, {.sessionKind = "latent",
                         .curvesFileName = "latent.csv",
                         .offersCsv = true,
                         .unitName = "iteration",
                         .defaultLength = 300,
                         .status = StatusStyle::UnitOfLength}),
      m_loglik(new LoglikView), m_plane(new DataPlaneView), m_trace(new TraceView),
      m_means(new LatentMeansView), m_imputation(new ImputationView), m_loadings(new LoadingsTiles),
      m_pictures(new RowTiles), m_noise(new NoiseTiles), m_traceSlot(new QStackedWidget),
      m_planeSlot(new QStackedWidget), m_meansSlot(new QStackedWidget) {
    makeControls();
    auto* open = new QPushButton("Open CSV…");
    layOut(open, makeMethods());
    connectControls(open);
    modelChanged();
}

void LatentPage::makeControls() {
    m_dataset = new QComboBox;
    for (const auto& [key, label] :
         std::vector<std::pair<QString, QString>>{{"synthetic", "Generated (truth known)"},
                                                  {"boston", "Boston housing"},
                                                  {"concrete", "Concrete strength"},
                                                  {"energy", "Energy efficiency"},
                                                  {"yacht", "Yacht hydrodynamics"},
                                                  {"fashion-mnist", "Fashion-MNIST (pictures)"},
                                                  {"digits", "Handwritten digits 8×8 (pictures)"}})
        m_dataset->addItem(label, key);
    m_dataset->setToolTip(
        "Generated: the explorer's FA generator (PPCA: its Ψ made isotropic; mixture: linear "
        "pieces in 2–3 D). Real data: every column (Energy: its cooling load left out) z-scored "
        "with the fitting rows' statistics. Pictures: Fashion-MNIST's 28×28 clothes (the Debian "
        "package dataset-fashion-mnist) or the UCI handwritten digits (8×8, bundled), pixels in "
        "[0, 1], not z-scored, the last pictures held out (docs/maths/images.md). Open CSV… "
        "(Ctrl+Shift+O) uses any CSV of numbers.");
    m_model = new QComboBox;
    m_model->addItem("Factor analysis (FA)", "fa");
    m_model->addItem("Probabilistic PCA", "ppca");
    m_model->addItem("Mixture of PPCA", "mppca");
    m_model->setToolTip("FA: C = F Fᵀ + Ψ (Ψ diagonal); PPCA: Ψ = σ² I; mixture: C components "
                        "each a PPCA with its own mean and weight.");
    m_prior = new QComboBox;
    fillPriors(fa::LatentModel::Fa, fa::FaPrior::None);
    m_prior->setToolTip(
        "The prior each FA method uses. First entry: batch EM maximises the likelihood, Gibbs "
        "keeps its independent priors (f_d ~ N(0, v_d I), ψ_d ~ IG(1, 0.1 v_d)). p ∝ Π 1/ψ, the "
        "slides' improper prior: EM's MAP step divides ψ's sum by N + 2; Gibbs draws each "
        "(f_d, c_d, ψ_d) jointly from its normal-inverse-χ² conditional (ψ floored at 1e-6 v_d in "
        "a Heywood case). Conjugate (ν₀ = 1, τ₀² = 0.1 of each column's variance, λ₀ = 1): EM's "
        "MAP step and Gibbs's joint draw under the same prior, which keeps every ψ away from 0. "
        "PPCA: maximum likelihood, or EM's MAP under w_k ~ N(0, I/α) (α below) and σ² ~ IG(1, "
        "0.1 v̄), v̄ the mean column variance: the loadings shrink toward 0.");
    // The parameters of core/latent/LatentParams.h: their ranges, defaults and tooltips.
    m_latent = m_fields.field("latent");
    m_components = m_fields.field("components");
    m_dim = m_fields.field("dim");
    m_trueLatent = m_fields.field("true-latent");
    m_samples = m_fields.field("samples");
    m_alpha = m_fields.field("alpha");
    m_hide = m_fields.field("hide-fraction");
    m_hideBlock = m_fields.field("hide-block");
    m_classes = new QLineEdit;
    m_classes->setPlaceholderText("all (e.g. 0,3,7)");
    m_classes->setToolTip(
        "Pictures: the classes to take, 0 to 9 separated by commas (Fashion-"
        "MNIST: 0 T-shirt/top, 1 trouser, 2 pullover, 3 dress, 4 coat, 5 sandal, "
        "6 shirt, 7 sneaker, 8 bag, 9 ankle boot; digits: the digit). Empty: all.");
    m_missing = new QCheckBox("empty cells are missing values");
    m_missing->setToolTip("A CSV's empty cells are missing values, integrated out exactly by "
                          "PPCA's EM (the only method that handles them). Off: refused.");
    makeRunFields(20, 1, "iterations", "Iterations per Step (→): one EM iteration or Gibbs sweep.");
    m_zoom = new QCheckBox("log-likelihood: last 10 iterations");
    m_zoom->setToolTip("Zoom the log-likelihood chart on the last 10 iterations, where EM's "
                       "bound touching the log-likelihood after each E step is large enough to "
                       "see (step with →).");
    m_traceEntry = new QComboBox;
    m_traceEntry->setToolTip("The entry of C = F Fᵀ + Ψ whose Gibbs draws are shown (F itself "
                             "is identified only up to rotation).");
}

QGroupBox* LatentPage::makeMethods() {
    return methodGroup(
        fa::allLatentMethods(), fa::latentMethodName, fa::Lab::Latent,
        [](fa::LatentMethod m) {
            return m == fa::LatentMethod::Em || m == fa::LatentMethod::Gibbs ||
                   m == fa::LatentMethod::Svd;
        },
        m_methods);
}

void LatentPage::layOut(QPushButton* open, QGroupBox* methods) {
    auto* form = new QGroupBox("Data and model");
    auto* f = new QFormLayout(form);
    f->addRow("data set", m_dataset);
    f->addRow(open);
    f->addRow(m_missing);
    f->addRow("model", m_model);
    f->addRow("prior", m_prior);
    m_fields.addRows(f, {"alpha", "latent", "components", "iterations", "test-fraction",
                         "hide-fraction", "hide-block", "seed", "dim", "true-latent", "samples"});
    f->addRow("classes", m_classes);
    m_samplesLabel = qobject_cast<QLabel*>(f->labelForField(m_samples));
    auto* run = new QGroupBox("Sampling, speed, view");
    auto* r = new QFormLayout(run);
    m_fields.addRows(r, {"chains", "burn-in", "lr"});
    r->addRow("speed", m_speed);
    r->addRow("step", m_step);
    r->addRow("view x", m_axes.x());
    r->addRow("view y", m_axes.y());
    r->addRow("trace", m_traceEntry);
    r->addRow(m_zoom);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);

    m_traceSlot->addWidget(m_trace);
    m_traceSlot->addWidget(m_imputation);
    m_traceSlot->addWidget(m_noise);
    m_planeSlot->addWidget(m_plane);
    m_planeSlot->addWidget(m_loadings);
    m_meansSlot->addWidget(m_means);
    m_meansSlot->addWidget(m_pictures);
    QWidget* views = fourViews({m_loglik, m_planeSlot, m_traceSlot, m_meansSlot}, m_summary);
    if (auto* grid = qobject_cast<QGridLayout*>(views->layout())) // pictures get half the width
        for (int column : {0, 1})
            grid->setColumnStretch(column, 1);
    modeLayout(this, {form, methods, run}, views, &m_parameters);
}

void LatentPage::connectControls(QPushButton* open) {
    connect(open, &QPushButton::clicked, this, &LatentPage::openCsvDialog);
    auto restart = [this] {
        if (!m_quiet)
            reset();
    };
    connect(m_dataset, &QComboBox::currentIndexChanged, this, &LatentPage::datasetSwitched);
    connect(m_classes, &QLineEdit::editingFinished, this, &LatentPage::classesEdited);
    connect(m_model, &QComboBox::currentIndexChanged, this, &LatentPage::modelSwitched);
    m_methods.onToggled(this, restart);
    connect(m_missing, &QCheckBox::toggled, this, restart);
    connect(m_prior, &QComboBox::currentIndexChanged, this, [this] {
        if (m_quiet)
            return;
        enableFields(fa::parseLatentModel(m_model->currentData().toString().toStdString()));
        reset();
    });
    m_fields.onAnyChanged(this, restart,
                          {m_dim, m_hide, m_hideBlock, m_fields.field("iterations")});
    for (QAbstractSpinBox* holes : {m_hide, m_hideBlock})
        onFieldChanged(holes, this, [this](double amount) { holesChanged(amount); });
    onFieldChanged(m_dim, this, [this](double) {
        if (m_quiet)
            return;
        resetView(); // the columns in view may be gone
        reset();
    });
    connectLength(m_fields.field("iterations"), m_quiet);
    connect(m_zoom, &QCheckBox::toggled, this, [this](bool on) {
        m_loglik->setWindow(on ? 10 : 0);
        redrawNow();
    });
    connectPlane(m_axes, m_quiet);
    connect(m_traceEntry, &QComboBox::currentIndexChanged, this, [this](int entry) {
        if (!m_quiet && entry >= 0)
            change([entry](fa::LatentLive& run) { run.setTraceEntry(entry); }, Lasting::Yes);
    });
}

/// Another model: its usual methods, and the mixture's sizes (lines in 3-D) or the others' back.
void LatentPage::modelSwitched() {
    if (m_quiet)
        return;
    m_quiet = true; // the model's usual methods and sizes
    const QString model = m_model->currentData().toString();
    for (const auto& [m, box] : m_methods)
        box->setChecked(model == "fa" ? (m == fa::LatentMethod::Em ||
                                         m == fa::LatentMethod::Gibbs || m == fa::LatentMethod::Svd)
                        : model == "ppca"
                            ? (m == fa::LatentMethod::Em || m == fa::LatentMethod::ClosedForm)
                            : m == fa::LatentMethod::Em);
    // The mixture's lab data are lines in 3-D (K = 1); the other models get their sizes back.
    const bool toMixture = model == "mppca", fromMixture = m_mixtureSizes.has_value();
    if (toMixture && !fromMixture) {
        m_mixtureSizes = {static_cast<int>(fieldValue(m_latent)),
                          static_cast<int>(fieldValue(m_dim)),
                          static_cast<int>(fieldValue(m_trueLatent))};
        setFieldValue(m_latent, 1);
        setFieldValue(m_dim, 3);
        setFieldValue(m_trueLatent, 1);
        emit message("Mixture of PPCA: K = 1 and generated lines in 3-D (D = 3, true K = 1); "
                     "FA and PPCA get their sizes back",
                     8000);
    } else if (!toMixture && fromMixture) {
        setFieldValue(m_latent, m_mixtureSizes->latent);
        setFieldValue(m_dim, m_mixtureSizes->dim);
        setFieldValue(m_trueLatent, m_mixtureSizes->trueLatent);
        m_mixtureSizes.reset();
    }
    if (model != "ppca") { // only PPCA's EM fits rows with holes
        setFieldValue(m_hide, 0);
        setFieldValue(m_hideBlock, 0);
    }
    m_quiet = false;
    resetView();
    modelChanged();
}

QCheckBox* LatentPage::methodBox(fa::LatentMethod method) const {
    return m_methods.box(method);
}

void LatentPage::modelChanged() {
    const fa::LatentModel model =
        fa::parseLatentModel(m_model->currentData().toString().toStdString());
    for (const auto& [m, box] : m_methods) {
        const bool offered = fa::modelOffers(model, m);
        box->setEnabled(offered);
        const std::string id = fa::latentMethodName(m);
        box->setToolTip(offered ? methodTip(id, fa::Lab::Latent)
                                : methodTip(id, fa::Lab::Latent) + " — not for this model");
    }
    fillPriors(model, fa::parseFaPrior(m_prior->currentData().toString().toStdString()));
    enableFields(model);
    reset();
}

void LatentPage::fillPriors(fa::LatentModel model, fa::FaPrior chosen) {
    const bool quiet = m_quiet;
    m_quiet = true;
    m_prior->clear();
    if (model == fa::LatentModel::Ppca) { // docs/maths/latent.md §3.5
        m_prior->addItem("EM: maximum likelihood", "none");
        m_prior->addItem("EM MAP: w ~ N(0, I/α), σ² ~ IG(1, 0.1 v̄)", "independent");
    } else { // one prior per entry for EM and Gibbs alike (§1.7, §2.5)
        m_prior->addItem("EM: max. likelihood · Gibbs: independent", "none");
        m_prior->addItem("p ∝ Π 1/ψ (slides eq 4): EM MAP · Gibbs NIχ²", "jeffreys");
        m_prior->addItem("conjugate NIχ²: EM MAP · Gibbs NIχ²", "conjugate");
    }
    // A word the model's box does not list runs as its first entry does.
    m_prior->setCurrentIndex(
        std::max(0, m_prior->findData(QString::fromStdString(fa::faPriorName(chosen)))));
    m_quiet = quiet;
}

void LatentPage::configRestored() {
    m_axes.forget();
    m_shownEntries.clear();
}

void LatentPage::resetView() {
    m_quiet = true;
    m_axes.reset();
    m_traceEntry->setCurrentIndex(0);
    m_quiet = false;
}

void LatentPage::fillViewChoices(const fa::LatentLiveSnapshot& s) {
    m_quiet = true;
    m_axes.offer(s.columns);
    m_axes.select(s.xLabel, s.yLabel);
    if (s.trace.entryLabels != m_shownEntries) {
        m_shownEntries = s.trace.entryLabels;
        const int keep = m_traceEntry->currentIndex();
        m_traceEntry->clear();
        for (const auto& e : s.trace.entryLabels)
            m_traceEntry->addItem(QString::fromStdString(e));
        m_traceEntry->setCurrentIndex(std::clamp(keep, 0, std::max(0, m_traceEntry->count() - 1)));
    }
    if (const auto it =
            std::find(s.trace.entryLabels.begin(), s.trace.entryLabels.end(), s.trace.label);
        it != s.trace.entryLabels.end())
        m_traceEntry->setCurrentIndex(static_cast<int>(it - s.trace.entryLabels.begin()));
    m_traceEntry->setEnabled(s.trace.present);
    m_quiet = false;
}

void LatentPage::draw(const fa::LatentLiveSnapshot& s) {
    fillViewChoices(s);
    m_loglik->show(s);
    showViews(s);
    const fa::ImageLayout& image = s.pictures.layout;
    QString text =
        image.isImage()
            ? QString("<b>%1</b>, %2: %3 fitting pictures, %4 held out, %5×%6 pixels.")
                  .arg(QString::fromStdString(s.dataset), QString::fromStdString(s.model))
                  .arg(s.trainRows)
                  .arg(s.testRows)
                  .arg(image.width)
                  .arg(image.height)
            : QString("<b>%1</b>, %2: %3 fitting rows, %4 held out, %5 columns.")
                  .arg(QString::fromStdString(s.dataset), QString::fromStdString(s.model))
                  .arg(s.trainRows)
                  .arg(s.testRows)
                  .arg(s.columns.size());
    if (s.imputation.present) // §3.6: hidden before fitting, drawn at their values
        text += QString(" %1 fitting entries hidden (%2 %), drawn at their values.")
                    .arg(s.imputation.hidden)
                    .arg(100.0 * s.imputation.hideFraction, 0, 'f', 0);
    text += " Last iteration (fitting / held-out log-likelihood per row):";
    if (!s.leftOut.empty()) {
        QStringList names;
        for (const auto& n : s.leftOut)
            names << QString::fromStdString(n);
        text += QString(" (left out, not numbers: %1)").arg(names.join(", "));
    }
    for (const auto& m : s.methods) {
        if (m.curve.empty())
            continue;
        const std::string id = fa::latentMethodName(m.method);
        const auto& p = m.curve.back();
        text += QString(" &nbsp;<span style='color:%1'>%2</span> %3 / %4 (%5)")
                    .arg(colourFor(id, fa::Lab::Latent).name(), legendName(id, fa::Lab::Latent))
                    .arg(p.loglik, 0, 'f', 4)
                    .arg(std::isfinite(p.heldout) ? QString::number(p.heldout, 'f', 4) : "–")
                    .arg(QString::fromStdString(fa::statusNameOfCsvWord(m.status)));
    }
    m_summary->setText(text);
}

#pragma once
// The window's "Latent" mode: FA, PPCA and mixtures of PPCA fitted to generated data, the
// bundled UCI sets, pictures (Fashion-MNIST, the handwritten digits) or any CSV by batch EM,
// Gibbs sampling, the closed form, the SVD iteration and online EM / SGA, side by side, one
// iteration (or Gibbs sweep) at a time. Views: the log-likelihood with EM's ELBO staircase, the
// data in a plane with the models' ellipses and loadings (the mixture: points by component),
// Gibbs traces (with hidden entries: the filled against the hidden values), and E[z | x]; for
// pictures the loadings, a few rows with their fills or reconstructions, and Ψ as pictures
// (ui/latent/LatentPictureViews.h) in the plane's, E[z | x]'s and the traces' places.
#include "core/latent/LatentLive.h"
#include "core/latent/LatentParams.h"
#include "ui/common/LabPageOf.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/ParamFields.h"
#include "ui/common/PlaneCombos.h"
#include "ui/session/LatentSessionFile.h"

#include <optional>

class QCheckBox;
class QGroupBox;
class QPushButton;
class QComboBox;
class QLabel;
class LoglikView;
class DataPlaneView;
class TraceView;
class LatentMeansView;
class ImputationView;
class LoadingsTiles;
class RowTiles;
class NoiseTiles;
class QLineEdit;
class QStackedWidget;

class LatentPage
    : public LabPageOf<fa::LatentLive, fa::LatentLiveSnapshot, fa::io::LatentSessionFiles> {
    Q_OBJECT
  public:
    explicit LatentPage(QWidget* parent = nullptr);

    /// The run the controls describe (data set, model, methods, sizes, seeds, view).
    fa::LatentLiveConfig config() const override;
    void setConfig(const fa::LatentLiveConfig& config) override;
    LoglikView* loglikView() const { return m_loglik; }
    DataPlaneView* dataView() const { return m_plane; }
    TraceView* traceView() const { return m_trace; }
    LatentMeansView* latentView() const { return m_means; }
    ImputationView* imputationView() const { return m_imputation; }
    LoadingsTiles* loadingsView() const { return m_loadings; }
    RowTiles* picturesView() const { return m_pictures; }
    NoiseTiles* noiseView() const { return m_noise; }
    QLineEdit* classesField() const { return m_classes; }
    QCheckBox* methodBox(fa::LatentMethod method) const;

    std::vector<std::pair<QString, QWidget*>> charts() const override;
    bool exportCurves(const QString& csvPath) override; ///< the latent command's columns
    /// "imputation": the rows' imputation scores in `latent --imputation`'s columns.
    bool exportTable(const QString& table, const QString& csvPath) override;
    QWidget* parameterColumn() const override { return m_parameters; }
    bool openCsv(const QString& path) override;

  protected:
    void draw(const fa::LatentLiveSnapshot& s) override;
    void configRestored() override;

  private:
    /// Synthetic, the four UCI sets and the two image sets, first in the list.
    static constexpr int kBuiltinSets = 7;
    // The constructor's steps: the controls, the methods' boxes, the layout, the connections.
    void makeControls();
    QGroupBox* makeMethods();
    void layOut(QPushButton* open, QGroupBox* methods);
    void connectControls(QPushButton* open);
    void modelSwitched();
    void modelChanged();
    void fillViewChoices(const fa::LatentLiveSnapshot& s);
    void resetView(); ///< principal axes and the first trace entry (another data set or model)
    /// The prior box's entries for the model (FA's priors, or PPCA's none and MAP), keeping the
    /// chosen word where the model offers it.
    void fillPriors(fa::LatentModel model, fa::FaPrior chosen);
    void enableFields(fa::LatentModel model); ///< what applies to the model and data set
    void datasetSwitched(); ///< a picture set's count of pictures, or the generated rows back
    void holesChanged(double amount); ///< a hidden share or square: PPCA's EM alone
    void classesEdited();             ///< the classes field, checked (refused: put back)
    bool pictures() const;            ///< an image data set is chosen
    void showViews(const fa::LatentLiveSnapshot& s); ///< charts or pictures in each place

    QComboBox *m_dataset, *m_model, *m_prior, *m_traceEntry;
    PlanePicker m_axes; ///< view x, view y
    QCheckBox *m_missing, *m_zoom;
    MethodBoxes<fa::LatentMethod> m_methods;
    ParamFields<fa::LatentLiveConfig> m_fields{fa::latentLiveParams()}; ///< LatentParams.h
    QAbstractSpinBox *m_latent, *m_components, *m_dim, *m_trueLatent, *m_samples, *m_alpha, *m_hide,
        *m_hideBlock;
    QLineEdit* m_classes;
    std::vector<int> m_classesShown;       ///< the classes the field holds (checked)
    QLabel* m_samplesLabel = nullptr;      ///< "rows" or "pictures (at most)"
    std::optional<double> m_generatedRows; ///< the generated rows while a picture set's are shown
    QWidget* m_parameters = nullptr;       ///< the column presentation mode hides
    QLabel* m_summary;
    LoglikView* m_loglik;
    DataPlaneView* m_plane;
    TraceView* m_trace;
    LatentMeansView* m_means;
    ImputationView* m_imputation;
    LoadingsTiles* m_loadings;
    RowTiles* m_pictures;
    NoiseTiles* m_noise;
    QStackedWidget* m_traceSlot; ///< the Gibbs traces, the imputation (hidden entries) or Ψ
    QStackedWidget* m_planeSlot; ///< the data plane, or the loadings as pictures
    QStackedWidget* m_meansSlot; ///< E[z | x], or the rows as pictures
    std::vector<std::string> m_shownEntries;
    bool m_quiet = false;
    struct Sizes {
        int latent, dim, trueLatent;
    };
    std::optional<Sizes> m_mixtureSizes; ///< FA/PPCA's sizes while the mixture's are shown
};

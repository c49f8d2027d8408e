#include "ui/shell/ViewHelp.h"

#include "ui/shell/Labs.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

const std::vector<ViewHelp>& explorerViewHelp() {
    static const std::vector<ViewHelp> entries{
        {{"covariance-distance", "trials-covariance"},
         "Relative covariance distance (log–log, against samples seen T)",
         "‖Ŝ − S‖_F / ‖S‖_F, with S = F Fᵀ + Ψ the true covariance and Ŝ = F̂ F̂ᵀ + Ψ̂ a "
         "fit's. Batch FA is refitted on all samples at each decade (markers). Trials: mean ± "
         "standard error over seeds.",
         "A line falling steadily, about as T^(−1/2) once the factors are found (what is left "
         "is the samples' own error), and the online fits ending near the batch markers.",
         "A line flattening high (online EM with a wide spectrum keeps its early, poor "
         "estimates), or jumping up and off the chart (SGA with a learning rate too large for "
         "the strongest factor: divergence)."},
        {{"w2-over-d", "trials-w2"},
         "2-Wasserstein distance / D",
         "W₂(N(c, S), N(ĉ, Ŝ))² = ‖c − ĉ‖² + tr(S + Ŝ − 2 (S^½ Ŝ S^½)^½), divided by D so "
         "that different D compare. It counts the mean's error as well as the covariance's.",
         "Falling with T like the covariance distance.",
         "A level far above the covariance distance's shape: the mean is off (early samples)."},
        {{"contours-2d"},
         "2D marginal of two coordinates",
         "The marginal of (θᵢ, θⱼ) under the truth (black) and each fit: ellipses holding 39, "
         "86 and 99 % of the mass (Mahalanobis radius 1, 2, 3); grey points are the latest "
         "observations. The stepped observation is the one the Last step panel explains.",
         "The fits' ellipses lying on the black ones.",
         "Ellipses too round or too narrow: the factors that couple θᵢ and θⱼ are not found "
         "yet."},
        {{"covariance-heatmaps"},
         "Covariance heat maps",
         "Entries of S, each Ŝ and Ŝ − S on the leading block, one colour scale (red +, blue −); "
         "hover a cell for its value.",
         "Difference maps pale everywhere.",
         "Structured colour in a difference map: a factor missing or misplaced."}};
    return entries;
}

const std::vector<ViewHelp>& posteriorViewHelp() {
    static const std::vector<ViewHelp> entries{
        {{"posterior-contours-2d"},
         "Posterior of two parameters",
         "The exact posterior of Bayesian linear regression, N(m, S) with S = (αI + βXᵀX)⁻¹ and "
         "m = β S Xᵀ y (black; on a grid for the non-Gaussian targets and the Laplace prior), "
         "and each fit's q = N(c, F Fᵀ + Ψ) at 39 / 86 / 99 %. Grey points: SGD's iterates.",
         "The fits' ellipses on the exact one.",
         "An ellipse too small (VIPPCA's fixed σ, mean field on correlated parameters), "
         "elsewhere (one mode of a bimodal posterior), or the SGD cloud far narrower than the "
         "posterior (iterates are not posterior samples)."},
        {{"posterior-rel-mean"},
         "Relative mean distance",
         "‖ĉ − m‖ / ‖m‖ (or / √tr S when the mean is near 0), against epochs.",
         "Falling to a floor set by the gradient noise.",
         "Flat high: a learning rate too small; noisy and high: too large."},
        {{"posterior-rel-cov"},
         "Relative covariance distance",
         "‖Ŝ − S‖_F / ‖S‖_F of q's covariance against the exact posterior's.",
         "Falling to a floor; the floor is the family's (K factors cannot hold every direction).",
         "Starting at hundreds and falling slowly: ψ starts at 1 while the posterior's "
         "variances are tiny; a larger learning rate for log ψ helps."},
        {{"posterior-w2", "posterior-w2-over-d"},
         "2-Wasserstein distance (and / D, the report's Table 1 scale)",
         "W₂(N(m, S), N(ĉ, Ŝ)) as in the explorer.",
         "Falling with the two distances above.",
         "A plateau: the family or the step size limits the fit."},
        {{"posterior-means", "posterior-variances", "posterior-covariances"},
         "Compare with the exact posterior (report Figs. 2–5 (a)–(c))",
         "One point per entry: q's means, variances and off-diagonal covariances against the "
         "exact posterior's; the diagonal is agreement.",
         "Points on the diagonal.",
         "Variances below the diagonal: q underestimates the uncertainty (the report's "
         "observation for the Laplace prior on UCI data)."},
        {{},
         "Gradient estimators",
         "The variance of the ELBO gradient per estimator (reparameterisation, score function, "
         "score function with a baseline) at the same q, and each estimator's own fit.",
         "Reparameterisation orders of magnitude below the score function; a baseline cutting "
         "the score function's variance.",
         "A score-function fit wandering: its steps are mostly noise."},
        {{},
         "α, β through the bound",
         "Coordinate ascent on the ELBO over q and the hyperparameters α, β; the log evidence "
         "at the same α, β beside it.",
         "The ELBO rising to touch the log evidence (q exact for a Gaussian posterior).",
         "A gap that stays: q's family is too small."},
        {{"gp-predictive"},
         "Gaussian processes: the in-between set",
         "The GP's predictive of a new y over x (mean solid, ± 2 sd dotted) for four kernels, "
         "hyperparameters by the log marginal likelihood (in the legend); the linear kernel is "
         "Bayesian linear regression.",
         "Bands as narrow as the noise inside the two clusters and wider in the gap and beyond "
         "the data.",
         "A band as narrow in the gap as in the clusters: the model is over-confident where it "
         "has seen nothing (here the linear kernel, whose only freedom is a line)."},
        {{"gp-width-draws", "gp-width-convergence"},
         "Width → ∞: random networks and their GP",
         "Prior functions of random one-hidden-layer networks with H units (solid) beside draws "
         "of the GP with the same network's kernel (dashed); over H, the covariance of f(x₁), "
         "f(x₂) divided by the kernel and f(x₁)'s excess kurtosis (docs/maths/gp.md §7–8).",
         "A covariance ratio of 1 at every H; the excess kurtosis falling like 1/H to 0; "
         "draws that look like the GP's at H = 1000.",
         "At H = 1 each draw is a single step or hinge: the same covariance, not yet a "
         "Gaussian process."}};
    return entries;
}

const std::vector<ViewHelp>& neuralViewHelp() {
    static const std::vector<ViewHelp> entries{
        {{"neural-nmll"},
         "Negative mean log-likelihood (train dashed, test solid)",
         "NMLL = −(1/N) Σ log p(yₙ | xₙ), the predictive p(y | x) ≈ (1/S) Σ_s N(y; f_θs(x), 1/β) "
         "over S draws θ_s ~ q, on the original target scale.",
         "Test NMLL falling and levelling off near train NMLL.",
         "Test rising while train falls (overfitting), or both flat high (q stuck at the prior: "
         "VIFA on the large network from the report's start)."},
        {{"neural-rmse"},
         "RMSE",
         "√((1/N) Σ (yₙ − ŷₙ)²) with ŷ the predictive mean, original units.",
         "Falling well below the target's standard deviation.",
         "Stuck near the target's standard deviation: the network predicts the mean."},
        {{"neural-coverage"},
         "95 % coverage",
         "The share of test targets inside each method's central 95 % predictive interval "
         "(from the mixture of the draws' Gaussians), per epoch; dashed: the nominal 0.95.",
         "Near 0.95 (with few test rows it moves in steps of 1/N).",
         "Far below 0.95: the predictive is overconfident; at 1.00 throughout with a wide band: "
         "underconfident."},
        {{"neural-predictive"},
         "Test predictive, or the predictive over x",
         "Each test point's predictive mean ± 2 sd (from the draws) against its target, points "
         "sorted by target. A data set with one input (the in-between set) shows instead the "
         "mean ± 2 sd over a grid of x beyond the rows, with the rows.",
         "The mean following the black points, the band covering most of them; over x, a band "
         "that widens where there are no rows (the gap between the two clusters, and outside).",
         "A flat mean (predicting the mean), a band missing most points (overconfident), or a "
         "band as narrow in the gap as on the rows (no in-between uncertainty)."},
        {{"neural-trajectory"},
         "SGD iterates on the fit's plane",
         "The iterates the first checked SWA-FA or SWAG method collects (its first member), "
         "projected on the two leading directions u₁, u₂ of its Gaussian (eigenvectors of F Fᵀ) "
         "and centred at its mean; solid: the 95 % ellipse of F Fᵀ + Ψ projected, dashed: SWAG "
         "of the same iterates.",
         "The ellipses enclosing about 95 % of the cloud.",
         "An ellipse far smaller than the cloud: the fit underestimates the iterates' spread "
         "(online EM from the thesis's start ψ = 1, far above the iterates' scale)."},
        {{"neural-table"},
         "Splits table",
         "The report's protocol per split: a random search of prior, noise and σ by k-fold "
         "validation NMLL, a refit, test NMLL and RMSE; mean ± SE over splits beside the "
         "report's Tables 2–3.",
         "Our figures within a few standard errors of the published ones.",
         "A method far off on one set: see docs/results.md for the known differences."}};
    return entries;
}

const std::vector<ViewHelp>& latentViewHelp() {
    static const std::vector<ViewHelp> entries{
        {{"latent-loglik"},
         "Log-likelihood per row (and EM's bound)",
         "(1/N) Σ log N(xₙ; c, F Fᵀ + Ψ) for fitting rows (solid) and held-out rows (dotted); "
         "dashed: EM's lower bound (ELBO) after each M step.",
         "EM's staircase: after each E step the bound touches the log-likelihood, the M step "
         "raises both; never a step down.",
         "A fall in EM's curve (a bug: EM is monotone); held-out far below fitting rows "
         "(overfitting with a large K)."},
        {{"latent-data"},
         "Data and each model's ellipses",
         "The rows on their first two principal axes with each model's 1 and 2 sd ellipses; "
         "arrows: loadings.",
         "Ellipses that follow the cloud.",
         "An ellipse squeezed along one axis: a Heywood case (a ψ at the floor)."},
        {{"latent-trace"},
         "Gibbs trace",
         "One entry of C = F Fᵀ + Ψ across sweeps after burn-in, per chain, with the running "
         "mean, a 95 % band, R̂ (chains agree near 1) and the effective sample size.",
         "Chains overlapping, R̂ below 1.1, the mean settling.",
         "Chains apart, R̂ well above 1.1: run longer or burn in more."},
        {{"latent-imputation"},
         "Hidden entries filled in",
         "With a hidden share set (PPCA by EM), in the traces' place: each hidden entry's value "
         "(x) against its fill (y), E[x_miss | x_obs] of the current fit (colour) and the column "
         "mean (grey); the title gives both RMSEs over every hidden entry.",
         "The coloured points along y = x, their RMSE well below the column means' (the grey "
         "points lie flat).",
         "Coloured points as flat as the grey ones: the columns share little (K too small, or "
         "the data have no common factors to fill from)."},
        {{"latent-means"},
         "Posterior means E[z | x]",
         "Each row's posterior mean of the factors under batch EM (or the model chosen). For a "
         "mixture: E[z | x, c] in its most responsible piece c's own coordinates, coloured by "
         "piece (with K = 1, one strip per piece).",
         "Structure: clusters or a gradient along a known variable.",
         "Everything at 0: the factors explain nothing (K too large or ψ huge)."}};
    return entries;
}

const std::vector<ViewHelp>& nonlinearViewHelp() {
    static const std::vector<ViewHelp> entries{
        {{"nonlinear-elbo"},
         "ELBO and importance-weighted log-likelihood per row",
         "ELBO = E_q[log p(x | z)] − KL(q(z | x) ‖ p(z)) for fitting (thin) and held-out (thick) "
         "rows; dotted: log p(x) ≈ log (1/S) Σ p(x, z_s) / q(z_s | x); dashed: PPCA's level.",
         "Rising above PPCA's level on curved data; the IW curve just above the ELBO.",
         "Falling held-out ELBO (overfitting), or a collapse (step size too large)."},
        {{"nonlinear-gaps"},
         "The two gaps",
         "log p(x) − ELBO(q_enc) = [log p(x) − ELBO(q*)] + [ELBO(q*) − ELBO(q_enc)]: the "
         "approximation gap (the best Gaussian q per row) and the amortisation gap (the "
         "encoder against that best q).",
         "Both small; zero for the linear VAE, whose posterior is Gaussian.",
         "A large amortisation gap: the encoder cannot give each row its best q."},
        {{"nonlinear-latent"},
         "Latent space",
         "q's means for each row, coloured by the position along the manifold or a column.",
         "The colour changing smoothly along the latent axis.",
         "Colours mixed: the decoder folds the manifold."},
        {{"nonlinear-data"},
         "Data space",
         "The rows, the reconstructions, samples from the model and the decoded latent grid.",
         "The decoded grid tracing the data's curve.",
         "A straight grid through curved data (a linear model)."}};
    return entries;
}

const std::vector<ViewHelp>& viewHelp(const QString& lab) {
    static const std::vector<ViewHelp> none;
    for (const LabEntry& entry : labRegistry())
        if (entry.id == lab)
            return entry.help();
    return none;
}

QString viewHelpHtml(const QString& lab, const QString& labTitle) {
    QString html = QString("<h2>%1: what am I looking at?</h2>").arg(labTitle.toHtmlEscaped());
    for (const ViewHelp& h : viewHelp(lab))
        html += QString("<h3>%1</h3><p>%2</p><p><b>Good:</b> %3</p><p><b>Bad:</b> %4</p>")
                    .arg(h.title.toHtmlEscaped(), h.quantity.toHtmlEscaped(),
                         h.good.toHtmlEscaped(), h.bad.toHtmlEscaped());
    return html;
}

namespace {
void listShortcuts(const QMenu* menu, const QString& path, QString& rows) {
    for (const QAction* a : menu->actions()) {
        QString name = a->text();
        name.replace("&&", "\x01").remove('&').replace("\x01", "&");
        if (a->menu()) {
            listShortcuts(a->menu(), path + " → " + name, rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText).toHtmlEscaped();
        if (!keys.isEmpty())
            rows += QString("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                        .arg(keys.join(" or "), name.toHtmlEscaped(), path.toHtmlEscaped());
    }
}
} // namespace

QString shortcutsHtml(const QMenuBar* bar) {
    QString rows;
    for (const QAction* a : bar->actions())
        if (a->menu()) {
            QString name = a->text();
            listShortcuts(a->menu(), name.remove('&'), rows);
        }
    return "<h3>Keyboard shortcuts</h3><table cellpadding=4>"
           "<tr><th align=left>keys</th><th align=left>does</th><th align=left>menu</th></tr>" +
           rows +
           "</table><p>Double-click a chart (or the heat maps, the pictures) and it fills the "
           "page; double-click it again or press Esc for every view.</p>"
           "<p>In a number field, Space still plays or pauses; the mouse wheel "
           "changes a field only once it has the focus.</p>";
}

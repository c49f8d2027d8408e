// faexplorer-ui-bench: how quickly the window answers while the worker runs flat out.
// Plays a D = 1000 run (batch refits on), and meanwhile measures (1) the main thread's event-loop
// delay (a 0 ms timer posted every 20 ms, resizing the window every 100 ms), (2) the time from
// Pause to the worker's acknowledgement, and (3) the time to close and destroy the window mid-run.
// With "trials" as second argument, the trials panel runs 10 trials of the same run meanwhile
// (batch refits of seconds each), so (3) includes cancelling them. With "nonlinear" as the only
// argument it plays the nonlinear-FA lab flat out instead (a VAE, one 50-unit layer, 10,000
// fitting rows in 10 D) and also counts how often the ELBO chart repaints per second. With
// "close" it plays a lab whose single epoch takes seconds (the neural lab's 2 × 2000 network with
// 40 draws per gradient, a VAE of 1000 units on 80,000 rows), closes the window while the run
// is being built (1.5 s) or in the middle of an epoch (9 s) and times the close and destruction.
// Prints one line per figure. Timing lives here, not in the tests.
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/ExplorerPage.h"
#include "ui/neural/NeuralPage.h"
#include "ui/nonlinear/NonlinearPage.h"
#include "ui/nonlinear/NonlinearViews.h"
#include "ui/shell/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

/// Counts the paint events of a widget.
class PaintCounter : public QObject {
  public:
    long count = 0;
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::Paint)
            ++count;
        return false;
    }
};

int nonlinearBench(QApplication& app) {
    auto* w = new MainWindow;
    w->setCurrentLab("nonlinear");
    auto* page = w->page<NonlinearPage>();
    fa::VaeLiveConfig c = page->config();
    c.data.samples = 12500; // 10,000 fitting rows
    c.methods = {fa::VaeMethod::Vae};
    c.fit.hidden = {50};
    c.length = 1000;
    page->setConfig(c);
    w->resize(1280, 800);
    w->show();
    page->reset();
    PaintCounter paints;
    page->elboView()->viewport()->installEventFilter(&paints);
    std::vector<double> loopDelays, rates;
    QTimer probe;
    probe.setInterval(20);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        QElapsedTimer t;
        t.start();
        QTimer::singleShot(0, [&loopDelays, t] { loopDelays.push_back(t.nsecsElapsed() / 1e6); });
    });
    long lastPaints = 0;
    QTimer second;
    second.setInterval(1000);
    QObject::connect(&second, &QTimer::timeout, [&] {
        rates.push_back(double(paints.count - lastPaints));
        lastPaints = paints.count;
    });
    QTimer::singleShot(300, [&] {
        page->togglePlay();
        probe.start();
        second.start();
    });
    QTimer::singleShot(10300, [&] {
        probe.stop();
        second.stop();
        const long epochs = page->latestSnapshot() ? page->latestSnapshot()->epoch : -1;
        QElapsedTimer t;
        t.start();
        w->close();
        delete w;
        const double closeMs = t.nsecsElapsed() / 1e6;
        std::sort(loopDelays.begin(), loopDelays.end());
        std::sort(rates.begin(), rates.end());
        std::printf("nonlinear VAE (N = 10000, D = 10, 50 units): %ld epochs in 10 s of playing\n",
                    epochs);
        std::printf("nonlinear ELBO chart repaints per second: median %.0f, max %.0f over %zu s\n",
                    rates.empty() ? 0.0 : rates[rates.size() / 2],
                    rates.empty() ? 0.0 : rates.back(), rates.size());
        std::printf("nonlinear event-loop delay: median %.1f ms, max %.1f ms over %zu probes\n",
                    loopDelays.empty() ? 0.0 : loopDelays[loopDelays.size() / 2],
                    loopDelays.empty() ? 0.0 : loopDelays.back(), loopDelays.size());
        std::printf("nonlinear close + destroy mid-run: %.1f ms\n", closeMs);
        app.quit();
    });
    return app.exec();
}

/// Plays the window's current lab from reset, closes it `after` ms later and times the close.
void closeMidEpoch(QApplication& app, MainWindow* w, const char* what, int after) {
    w->resize(1280, 800);
    w->show();
    w->currentPage()->reset();
    w->currentPage()->togglePlay();
    QTimer::singleShot(after, [&] {
        const long position = w->currentPage()->stats().position;
        QElapsedTimer t;
        t.start();
        w->close();
        delete w;
        std::printf("%s: closed %d ms into the run at epoch %ld (0: mid-way through the first): "
                    "close + destroy %.1f ms\n",
                    what, after, position, t.nsecsElapsed() / 1e6);
        app.quit();
    });
    app.exec();
}

int closeBench(QApplication& app) {
    auto* w = new MainWindow;
    w->setCurrentLab("neural");
    fa::NeuralLiveConfig n = w->page<NeuralPage>()->config();
    n.fit.hidden = {2000, 2000};
    n.fit.samples = 40;
    w->page<NeuralPage>()->setConfig(n);
    closeMidEpoch(app, w, "neural, 2 x 2000 units, L = 40, on yacht", 1500); // being built
    w = new MainWindow;
    w->setCurrentLab("neural");
    w->page<NeuralPage>()->setConfig(n);
    closeMidEpoch(app, w, "neural, 2 x 2000 units, L = 40, on yacht", 9000); // mid-epoch
    w = new MainWindow;
    w->setCurrentLab("nonlinear");
    fa::VaeLiveConfig v = w->page<NonlinearPage>()->config();
    v.data.samples = 100000;
    v.methods = {fa::VaeMethod::Vae};
    v.fit.hidden = {1000};
    w->page<NonlinearPage>()->setConfig(v);
    closeMidEpoch(app, w, "nonlinear, a VAE of 1000 units on 80,000 rows", 1500);
    return 0;
}

/// The median and the largest of `v` (0 when it is empty).
std::pair<double, double> medianMax(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return std::make_pair(v.empty() ? 0.0 : v[v.size() / 2], v.empty() ? 0.0 : v.back());
}

/// A window playing a D = `dim` explorer run (Haar, T = 200,000) from 300 ms on, the trials
/// panel running meanwhile when `withTrials`.
MainWindow* playExplorer(int dim, bool withTrials) {
    auto* w = new MainWindow;
    fa::ExplorerConfig c = w->page<ExplorerPage>()->controls()->config();
    c.generator.dim = dim;
    c.generator.kind = fa::GeneratorKind::Haar;
    c.totalSamples = 200000;
    w->page<ExplorerPage>()->controls()->setConfig(c);
    w->resize(1400, 800);
    w->show();
    w->reset();
    QTimer::singleShot(300, w, [w, withTrials] {
        w->togglePlay();
        if (withTrials)
            w->currentPage()->runJob();
    });
    return w;
}

/// What the explorer bench measures while the run plays: the event-loop delay (a 0 ms timer
/// posted every 20 ms) and the frame after a resize (every 100 ms) from 500 ms on, the time from
/// Pause to the worker's acknowledgement (a pause / play cycle every 700 ms) from 1 s on.
class ExplorerProbes {
  public:
    explicit ExplorerProbes(MainWindow* w) : m_w(w) {
        probeLoop();
        cyclePauses();
    }
    void stop() {
        m_probe.stop();
        m_resizer.stop();
        m_cycler.stop();
        m_watch.stop();
    }
    void print(int dim) const {
        const auto [loopMed, loopMax] = medianMax(m_loopDelays);
        const auto [pauseMed, pauseMax] = medianMax(m_pauseDelays);
        const auto [frameMed, frameMax] = medianMax(m_resizeFrames);
        std::printf("D=%d frame after a resize (relayout + repaint): median %.1f ms, max "
                    "%.1f ms over %zu resizes\n",
                    dim, frameMed, frameMax, m_resizeFrames.size());
        std::printf("D=%d event-loop delay: median %.1f ms, max %.1f ms over %zu probes "
                    "(resizing every 100 ms)\n",
                    dim, loopMed, loopMax, m_loopDelays.size());
        std::printf("D=%d pause acknowledged: median %.1f ms, max %.1f ms over %zu pauses\n", dim,
                    pauseMed, pauseMax, m_pauseDelays.size());
    }

  private:
    void probeLoop() {
        m_probe.setInterval(20);
        QObject::connect(&m_probe, &QTimer::timeout, [this] {
            QElapsedTimer t;
            t.start();
            QTimer::singleShot(0, [this, t] { m_loopDelays.push_back(t.nsecsElapsed() / 1e6); });
        });
        m_resizer.setInterval(100);
        QObject::connect(&m_resizer, &QTimer::timeout, [this] {
            QElapsedTimer t;
            t.start();
            m_w->resize(1400 - 200 * (++m_resizes % 2), 800);
            m_w->repaint();
            m_resizeFrames.push_back(t.nsecsElapsed() / 1e6);
        });
        QTimer::singleShot(500, [this] {
            m_probe.start();
            m_resizer.start();
        });
    }
    // Pause / play cycles: the stats signal acknowledges the worker's state.
    void cyclePauses() {
        QObject::connect(m_w, &MainWindow::destroyed, [] {});
        m_cycler.setInterval(700);
        QObject::connect(&m_cycler, &QTimer::timeout, [this] {
            if (!m_w->currentPage()->stats().running)
                return m_w->togglePlay();
            m_pauseClock.start();
            m_waitingPause = true;
            m_w->togglePlay();
        });
        m_watch.setInterval(1);
        QObject::connect(&m_watch, &QTimer::timeout, [this] {
            if (m_waitingPause && !m_w->currentPage()->stats().running) {
                m_pauseDelays.push_back(m_pauseClock.nsecsElapsed() / 1e6);
                m_waitingPause = false;
            }
        });
        QTimer::singleShot(1000, [this] {
            m_cycler.start();
            m_watch.start();
        });
    }

    MainWindow* m_w;
    std::vector<double> m_loopDelays, m_pauseDelays;
    std::vector<double> m_resizeFrames; // a resize, its relayout and one whole repaint
    QTimer m_probe, m_resizer, m_cycler, m_watch;
    QElapsedTimer m_pauseClock;
    bool m_waitingPause = false;
    int m_resizes = 0;
};

/// Closes and destroys the window mid-run (batch refits possibly running), prints the figures
/// and quits.
void closeAndReport(QApplication& app, MainWindow* w, const ExplorerProbes& probes, int dim,
                    bool withTrials) {
    const long samples = w->page<ExplorerPage>()->latestSnapshot()
                             ? w->page<ExplorerPage>()->latestSnapshot()->samples
                             : -1;
    QElapsedTimer t;
    t.start();
    w->close();
    delete w;
    const double closeMs = t.nsecsElapsed() / 1e6;
    probes.print(dim);
    std::printf("D=%d close + destroy mid-run at T=%ld%s: %.1f ms\n", dim, samples,
                withTrials ? ", trials running" : "", closeMs);
    app.quit();
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc > 1 && std::string(argv[1]) == "nonlinear")
        return nonlinearBench(app);
    if (argc > 1 && std::string(argv[1]) == "close")
        return closeBench(app);
    const int dim = argc > 1 ? std::atoi(argv[1]) : 1000;
    const bool withTrials = argc > 2 && std::string(argv[2]) == "trials";
    MainWindow* w = playExplorer(dim, withTrials);
    ExplorerProbes probes(w);
    QTimer::singleShot(15000, [&] {
        probes.stop();
        if (!w->currentPage()->stats().running)
            w->togglePlay();
        QTimer::singleShot(1500, [&] { closeAndReport(app, w, probes, dim, withTrials); });
    });
    return app.exec();
}

// faexplorer-ui-bench: how quickly the window answers while the worker runs flat out.
// Plays a D = 1000 run (batch refits on), and meanwhile measures (1) the main thread's event-loop
// delay (a 0 ms timer posted every 20 ms, resizing the window every 100 ms), (2) the time from
// Pause to the worker's acknowledgement, and (3) the time to close and destroy the window mid-run.
// With "trials" as second argument, the trials panel runs 10 trials of the same run meanwhile
// (batch refits of seconds each), so (3) includes cancelling them.
// Prints one line per figure. Timing lives here, not in the tests.
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/ExplorerPage.h"
#include "ui/shell/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const int dim = argc > 1 ? std::atoi(argv[1]) : 1000;
    const bool withTrials = argc > 2 && std::string(argv[2]) == "trials";
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

    std::vector<double> loopDelays, pauseDelays;
    QElapsedTimer clock;
    clock.start();
    QTimer probe;
    probe.setInterval(20);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        QElapsedTimer t;
        t.start();
        QTimer::singleShot(0, [&loopDelays, t] { loopDelays.push_back(t.nsecsElapsed() / 1e6); });
    });
    QTimer resizer;
    resizer.setInterval(100);
    int k = 0;
    QObject::connect(&resizer, &QTimer::timeout, [&] { w->resize(1400 - 200 * (++k % 2), 800); });
    QTimer::singleShot(500, [&] {
        probe.start();
        resizer.start();
    });

    // Pause / play cycles: the stats signal acknowledges the worker's state.
    QElapsedTimer pauseClock;
    bool waitingPause = false;
    QObject::connect(w, &MainWindow::destroyed, [] {});
    QTimer cycler;
    cycler.setInterval(700);
    QObject::connect(&cycler, &QTimer::timeout, [&] {
        if (!w->currentPage()->stats().running)
            return w->togglePlay();
        pauseClock.start();
        waitingPause = true;
        w->togglePlay();
    });
    QTimer watch;
    watch.setInterval(1);
    QObject::connect(&watch, &QTimer::timeout, [&] {
        if (waitingPause && !w->currentPage()->stats().running) {
            pauseDelays.push_back(pauseClock.nsecsElapsed() / 1e6);
            waitingPause = false;
        }
    });
    QTimer::singleShot(1000, [&] {
        cycler.start();
        watch.start();
    });

    QTimer::singleShot(15000, [&] {
        probe.stop();
        resizer.stop();
        cycler.stop();
        watch.stop();
        if (!w->currentPage()->stats().running)
            w->togglePlay();
        QTimer::singleShot(1500, [&] { // mid-run, batch refits possibly running
            const long samples = w->page<ExplorerPage>()->latestSnapshot()
                                     ? w->page<ExplorerPage>()->latestSnapshot()->samples
                                     : -1;
            QElapsedTimer t;
            t.start();
            w->close();
            delete w;
            const double closeMs = t.nsecsElapsed() / 1e6;
            auto stats = [](std::vector<double> v) {
                std::sort(v.begin(), v.end());
                return std::make_pair(v.empty() ? 0.0 : v[v.size() / 2],
                                      v.empty() ? 0.0 : v.back());
            };
            const auto [loopMed, loopMax] = stats(loopDelays);
            const auto [pauseMed, pauseMax] = stats(pauseDelays);
            std::printf("D=%d event-loop delay: median %.1f ms, max %.1f ms over %zu probes "
                        "(resizing every 100 ms)\n",
                        dim, loopMed, loopMax, loopDelays.size());
            std::printf("D=%d pause acknowledged: median %.1f ms, max %.1f ms over %zu pauses\n",
                        dim, pauseMed, pauseMax, pauseDelays.size());
            std::printf("D=%d close + destroy mid-run at T=%ld%s: %.1f ms\n", dim, samples,
                        withTrials ? ", trials running" : "", closeMs);
            app.quit();
        });
    });
    return app.exec();
}

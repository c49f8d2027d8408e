// faexplorer-sweep-figures: the thesis's Figures 5.1 / 5.2 from fa-sweep CSVs, drawn by the
// window's own band charts (ui/common/BandChartView, as the trials panel shows them) and saved
// as one PNG: one panel per CSV, mean ± standard error over trials against the samples T.
//   faexplorer-sweep-figures --metric rel_cov|w2 --out FIG.png [--columns 3]
//                            [--omit ALGORITHM:SPECTRUM_HI] CSV...
#include "core/explorer/FaSweepCsv.h"
#include "core/explorer/TrialBands.h"
#include "ui/common/BandChartView.h"

#include <QApplication>
#include <QGridLayout>
#include <QPixmap>
#include <QWidget>

#include <cstdio>
#include <fstream>
#include <stdexcept>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString metric = "rel_cov", out;
    int columns = 3;
    QStringList inputs, omit;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == "--metric" && i + 1 < args.size())
            metric = args[++i];
        else if (args[i] == "--out" && i + 1 < args.size())
            out = args[++i];
        else if (args[i] == "--omit" && i + 1 < args.size())
            omit = args[++i].split(':'); // ALGORITHM:SPECTRUM_HI, as the thesis's bottom row
        else if (args[i] == "--columns" && i + 1 < args.size())
            columns = std::max(1, args[++i].toInt());
        else
            inputs << args[i];
    }
    if (out.isEmpty() || inputs.isEmpty() || (metric != "rel_cov" && metric != "w2")) {
        std::fprintf(stderr, "usage: faexplorer-sweep-figures --metric rel_cov|w2 --out FIG.png "
                             "[--columns 3] [--omit ALGORITHM:SPECTRUM_HI] CSV...\n");
        return 2;
    }
    QWidget page;
    auto* grid = new QGridLayout(&page);
    for (int i = 0; i < inputs.size(); ++i) {
        std::ifstream in(inputs[i].toStdString());
        std::vector<fa::FaSweepRow> rows;
        try {
            if (!in)
                throw std::invalid_argument("cannot read it");
            rows = fa::io::readFaSweepCsv(in);
            if (rows.empty())
                throw std::invalid_argument("no rows");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "faexplorer-sweep-figures: %s: %s\n", qPrintable(inputs[i]),
                         e.what());
            return 2;
        }
        const fa::FaSweepRow r = rows.front();
        bool omitted = false;
        if (omit.size() == 2 && r.spectrumHi == omit[1].toDouble()) {
            omitted = std::erase_if(rows, [&](const fa::FaSweepRow& x) {
                          return QString::fromStdString(x.algorithm) == omit[0];
                      }) > 0;
        }
        long total = 0;
        for (const auto& row : rows)
            total = std::max(total, row.samples);
        const QString title =
            QString("D = %1, spectrum [%2, %3], %4 trials")
                .arg(r.dim)
                .arg(r.spectrumLo)
                .arg(r.spectrumHi)
                .arg(rows.back().trial + 1) +
            (omitted ? QString(" (%1 off the scale, omitted)").arg(omit[0]) : QString());
        auto* chart = metric == "rel_cov"
                          ? new BandChartView(title, "relative covariance distance",
                                              [](const fa::BandPoint& p) { return p.relCovDist; })
                          : new BandChartView(title, "W₂ / D",
                                              [](const fa::BandPoint& p) { return p.w2OverDim; });
        chart->showBands(fa::trialBands(rows), total);
        grid->addWidget(chart, i / columns, i % columns);
    }
    const int rowsOfPanels = (static_cast<int>(inputs.size()) + columns - 1) / columns;
    page.resize(600 * std::min<int>(columns, static_cast<int>(inputs.size())), 430 * rowsOfPanels);
    page.show();
    QApplication::processEvents();
    if (!page.grab().save(out)) {
        std::fprintf(stderr, "faexplorer-sweep-figures: cannot write '%s'\n", qPrintable(out));
        return 1;
    }
    std::printf("%s: %d panel(s)\n", qPrintable(out), static_cast<int>(inputs.size()));
    return 0;
}

// The installed tree: `cmake --install` into a temporary prefix puts the programs, the desktop
// entry, the icon, the presets, the examples and the bundled data in the standard places; the
// prefix is then moved elsewhere (so neither the source tree, the build tree nor the first prefix
// can be what the programs read), and from there faexplorer-cli --help, a CLI run on a bundled
// data set, faexplorer --list-presets and faexplorer --preset ... --screenshot all work.
#include <QImage>
#include <QtTest>

class TestInstall : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_prefix;

    struct Result {
        int code;
        QString out, err;
    };
    Result run(const QString& program, const QStringList& args, int timeoutMs = 120000) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("XDG_CONFIG_HOME", m_dir.filePath("config"));
        for (const char* own : {"FAEXPLORER_DATA", "FAEXPLORER_SHARE"})
            env.remove(own);
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(m_dir.filePath("work")); // nothing of ours around the program
        p.start(program, args);
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return {-1, {}, "timeout"};
        }
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QString installed(const QString& relative) const { return m_prefix + "/" + relative; }

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir(m_dir.path()).mkpath("work"));
        const QString first = m_dir.filePath("first-prefix");
        const Result r =
            run(FAEXPLORER_CMAKE, {"--install", FAEXPLORER_BUILD_DIR, "--prefix", first});
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        m_prefix = m_dir.filePath("moved/usr");
        QVERIFY(QDir(m_dir.path()).mkpath("moved"));
        QVERIFY(QDir().rename(first, m_prefix));
    }

    void theFilesAreInTheStandardPlaces() {
        for (const char* f :
             {"bin/faexplorer", "bin/faexplorer-cli", "share/applications/faexplorer.desktop",
              "share/icons/hicolor/scalable/apps/faexplorer.svg",
              "share/faexplorer/data/boston_housing.csv", "share/faexplorer/data/yacht.csv",
              "share/faexplorer/examples/d100-k10.json",
              "share/faexplorer/presets/thesis-fig5-d100-s10.json"})
            QVERIFY2(QFileInfo::exists(installed(f)), f);
        QVERIFY(QFileInfo(installed("bin/faexplorer")).isExecutable());
        const QStringList source = QDir(FAEXPLORER_SOURCE_DIR "/resources/presets")
                                       .entryList({"*.json"}, QDir::Files, QDir::Name);
        QCOMPARE(QDir(installed("share/faexplorer/presets"))
                     .entryList({"*.json"}, QDir::Files, QDir::Name),
                 source);
        QFile desktop(installed("share/applications/faexplorer.desktop"));
        QVERIFY(desktop.open(QIODevice::ReadOnly));
        const QString entry = QString::fromUtf8(desktop.readAll());
        QVERIFY(entry.contains("Exec=faexplorer") && entry.contains("Icon=faexplorer"));
    }

    void theCliRunsAndReadsItsBundledData() {
        Result r = run(installed("bin/faexplorer-cli"), {"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("fa-sweep") && r.out.contains("posterior"));
        const QString csv = m_dir.filePath("work/yacht.csv");
        r = run(installed("bin/faexplorer-cli"), {"posterior", "--dataset", "yacht", "--epochs",
                                                  "3", "--trials", "1", "--out", csv});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().count('\n') > 1); // a header and rows: the data set was found
    }

    void theWindowListsAndOpensItsPresets() {
        Result r = run(installed("bin/faexplorer"), {"--list-presets"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), QDir(FAEXPLORER_SOURCE_DIR "/resources/presets")
                                   .entryList({"*.json"}, QDir::Files)
                                   .size());
        QVERIFY(lines.first().startsWith("thesis-fig5-d100-s10\texplorer\t"));
        // A preset on a bundled data set: the window finds the preset and the data in the prefix.
        const QString shot = m_dir.filePath("work/yacht.png");
        r = run(installed("bin/faexplorer"),
                {"--preset", "report-fig2-yacht", "--after-epochs", "20", "--screenshot", shot});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("posterior at epoch 20"));
        QVERIFY(!QImage(shot).isNull());
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "test_install.moc"

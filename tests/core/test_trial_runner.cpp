// Trials side by side and in slices (core/lab/TrialRunner.h), and the merge of sliced CSVs
// (core/io/ShardMerge.h), against what they must be by construction: every trial in exactly one
// shard, rows in trial order whatever the threads and however long each trial takes, the
// first error rethrown, and merged shards equal to the whole.
#include "core/io/ShardMerge.h"
#include "core/lab/TrialRunner.h"

#include <QtTest>

#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>

using namespace fa;

class TestTrialRunner : public QObject {
    Q_OBJECT
  private slots:
    void shardsPartitionTheTrials() {
        for (int trials : {1, 2, 7, 10, 100})
            for (int n : {1, 2, 3, 7, 12}) {
                std::vector<int> all;
                std::size_t smallest = 1000, largest = 0;
                for (int i = 0; i < n; ++i) {
                    const auto part = shardTrials(trials, {i, n});
                    smallest = std::min(smallest, part.size());
                    largest = std::max(largest, part.size());
                    all.insert(all.end(), part.begin(), part.end());
                }
                QCOMPARE(static_cast<int>(all.size()), trials); // disjoint and complete,
                for (int t = 0; t < trials; ++t)                // in order
                    QCOMPARE(all[static_cast<std::size_t>(t)], t);
                QVERIFY(largest - smallest <= 1); // and balanced
            }
        QCOMPARE(parseShard("3/8").index, 2);
        QCOMPARE(parseShard("3/8").count, 8);
        for (const char* bad :
             {"", "/", "1/", "/2", "0/2", "3/2", "a/b", "1/2/3", " 1/2", "1/100001"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseShard(bad));
    }
    void rowsComeBackInTrialOrderForAnyThreads() {
        // Later trials finish first: each sleeps less than the one before.
        const std::vector<int> trials{3, 4, 5, 6, 7, 8};
        auto work = [](int t) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2 * (9 - t)));
            return std::vector<int>{t * 10, t * 10 + 1};
        };
        std::vector<int> expected;
        for (int t : trials)
            expected.insert(expected.end(), {t * 10, t * 10 + 1});
        for (int threads : {1, 2, 3, 8, 0})
            QCOMPARE(runTrials<int>(trials, threads, work), expected);
    }
    void cancelStopsNewTrialsAndErrorsAreRethrown() {
        std::atomic<bool> cancel{false};
        const auto rows = runTrials<int>(
            {0, 1, 2, 3}, 1,
            [&](int t) {
                if (t == 1)
                    cancel = true;
                return std::vector<int>{t};
            },
            &cancel);
        QCOMPARE(rows, (std::vector<int>{0, 1})); // trial 1 finished; 2 and 3 never started
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runTrials<int>({0, 1, 2, 3}, 2, [](int t) {
                                     if (t == 2)
                                         throw std::runtime_error("trial 2 failed");
                                     return std::vector<int>{t};
                                 }));
        QCOMPARE(resolveThreads(5, 3), 3);
        QCOMPARE(resolveThreads(1, 30), 1);
        QVERIFY(resolveThreads(0, 1000) >= 1);
    }
    void mergedShardsAreTheWhole() {
        // Three trials in two shards, each shard's rows cut from the whole by shardTrials, with
        // the shard columns added; merged in any order they are the whole again.
        const std::string header = "dataset,method,hidden,trial,value\n";
        const std::vector<std::string> trialRows{"a,m,\"50,50\",0,1\na,n,\"50,50\",0,2\n",
                                                 "a,m,\"50,50\",1,3\na,n,\"50,50\",1,4\n",
                                                 "a,m,\"50,50\",2,5\na,n,\"50,50\",2,6\n"};
        std::string whole = header;
        for (const std::string& r : trialRows)
            whole += r;
        std::vector<io::ShardText> shards;
        for (int i = 0; i < 2; ++i) { // Shard counts from 0 (parseShard("1/2") is {0, 2})
            std::string rows = header;
            for (const int t : shardTrials(3, {i, 2}))
                rows += trialRows[static_cast<std::size_t>(t)];
            shards.push_back({i == 0 ? "s1.csv" : "s2.csv", io::withShardColumns(rows, {i, 2}, 3)});
        }
        io::MergeSummary s;
        QCOMPARE(io::mergeShards({shards[1], shards[0]}, {}, &s), whole);
        QCOMPARE(s.column, std::string("trial"));
        QCOMPARE(s.slices, 3);
        QCOMPARE(s.rows, 6L);
        auto refuses = [](const std::vector<io::ShardText>& in, const std::string& message) {
            try {
                io::mergeShards(in, {});
            } catch (const std::invalid_argument& e) {
                return std::string(e.what()).find(message) != std::string::npos;
            }
            return false;
        };
        // A forgotten shard, a shard given twice, a file cut mid-line are each refused.
        QVERIFY(!refuses({shards[0], shards[1]}, ""));
        QVERIFY(refuses({shards[0]}, ""));
        QVERIFY(refuses({shards[0], shards[0]}, ""));
        io::ShardText cut = shards[1];
        cut.text.resize(cut.text.size() - 7);
        QVERIFY(refuses({shards[0], cut}, ""));
        QVERIFY(refuses({shards[0], {"x.csv", "dataset,trial\n"}}, "x.csv"));
        QVERIFY(refuses({{"z.csv", "a,b\n1,2\n"}}, "no trial or split column"));
        QVERIFY(refuses({}, "at least one"));
        // A quote never closed (fuzz_csv: merging such a file again added a line each time).
        QVERIFY(refuses({{"q.csv", header + "a,\"m,\"50,50\",0,1\n"}}, "q.csv: a quoted cell"));
    }
};

QTEST_GUILESS_MAIN(TestTrialRunner)
#include "test_trial_runner.moc"

#pragma once
// The threads the window's background jobs use (the explorer's trials, the neural lab's
// hyperparameter search): every core, unless `faexplorer --threads N` says otherwise. Their
// results do not depend on it.
#include <algorithm>
#include <thread>

inline int& backgroundThreadsSetting() {
    static int threads = 0; // 0: every core
    return threads;
}
inline void setBackgroundThreads(int n) {
    backgroundThreadsSetting() = n;
}
inline int backgroundThreads() {
    const int n = backgroundThreadsSetting();
    return n > 0 ? n : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

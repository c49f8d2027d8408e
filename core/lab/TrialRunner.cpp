#include "core/lab/TrialRunner.h"

#include <cstdlib>
#include <stdexcept>

namespace fa {

Shard parseShard(const std::string& text) {
    const std::string usage = "--shard must be i/n with 1 <= i <= n <= 100000 (got '" + text + "')";
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 >= text.size())
        throw std::invalid_argument(usage);
    auto number = [&](const std::string& part) {
        if (part.empty() || part.size() > 6 ||
            part.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument(usage);
        return std::atoi(part.c_str());
    };
    const int i = number(text.substr(0, slash)), n = number(text.substr(slash + 1));
    if (i < 1 || n < 1 || i > n || n > 100000)
        throw std::invalid_argument(usage);
    return {i - 1, n};
}

std::vector<int> shardTrials(int trials, const Shard& shard) {
    if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
        throw std::invalid_argument("a shard is i/n with 1 <= i <= n");
    const auto begin = static_cast<int>(static_cast<long long>(trials) * shard.index / shard.count);
    const auto end =
        static_cast<int>(static_cast<long long>(trials) * (shard.index + 1) / shard.count);
    std::vector<int> out;
    for (int t = begin; t < end; ++t)
        out.push_back(t);
    return out;
}

int resolveThreads(int requested, int work) {
    int n = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
    n = std::max(n, 1);
    return std::max(1, std::min(n, work));
}

} // namespace fa

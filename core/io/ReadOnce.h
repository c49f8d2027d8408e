#pragma once
// A data loader that reads each data set once: a command's trials (run side by side) each draw
// their split from the table read at the first trial, so a file replaced mid-run cannot mix two
// data sets and a file deleted mid-run cannot throw away finished trials. A failed read is not
// kept: the next call reads again (and fails with the same reason).
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>

namespace fa::io {

template <class Result, class... Args>
std::function<Result(Args...)> readOnce(std::function<Result(Args...)> load) {
    struct Cache {
        std::mutex lock;
        std::map<std::tuple<std::decay_t<Args>...>, Result> values;
    };
    auto cache = std::make_shared<Cache>();
    return [cache, load = std::move(load)](Args... args) -> Result {
        const std::lock_guard<std::mutex> hold(cache->lock);
        const auto key = std::make_tuple(std::decay_t<Args>(args)...);
        auto it = cache->values.find(key);
        if (it == cache->values.end())
            it = cache->values.emplace(key, load(args...)).first;
        return it->second;
    };
}

} // namespace fa::io

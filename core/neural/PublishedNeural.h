#pragma once
// The report's Tables 2 and 3 (neural networks on the UCI sets, 20 splits): test NMLL and RMSE,
// mean +- standard error, for showing beside our figures.
#include <optional>
#include <string>

namespace fa {

struct PublishedNeural {
    double nmll, nmllSe, rmse, rmseSe;
};

/// dataset: boston, concrete, energy, yacht; hidden: "50" or "50,50"; method: vifa-gauss,
/// vifa-laplace, vippca-gauss, vippca-laplace. Empty when the report has no such entry.
std::optional<PublishedNeural>
publishedNeural(const std::string& dataset, const std::string& hidden, const std::string& method);

} // namespace fa

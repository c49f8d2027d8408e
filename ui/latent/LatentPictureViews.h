#pragma once
// The latent lab's views of pictures (docs/maths/images.md), each drawing one LatentLiveSnapshot
// as image tiles (ui/common/ImageTiles.h): the fit's mean and loadings (F or W, signed colours),
// a few fitting rows beside their fills E[x_miss | x_obs] (hidden pixels, the RMSE of each
// against the hidden truth) or their reconstructions c + F E[z | x], and Ψ with the pixels'
// variance (which pixels the fit calls noise).
#include "core/latent/LatentLive.h"
#include "ui/common/ImageTiles.h"

/// The mean picture and the K loadings (columns by decreasing norm), red positive, blue negative.
class LoadingsTiles : public ImageTiles {
    Q_OBJECT
  public:
    explicit LoadingsTiles(QWidget* parent = nullptr) : ImageTiles(parent) {}
    void show(const fa::LatentLiveSnapshot& s);
};

/// The shown rows (top), with their holes (middle, hole colour) and filled (bottom); without
/// hidden pixels the rows and their reconstructions.
class RowTiles : public ImageTiles {
    Q_OBJECT
  public:
    explicit RowTiles(QWidget* parent = nullptr) : ImageTiles(parent) {}
    void show(const fa::LatentLiveSnapshot& s);
};

/// Each pixel's variance over the fitting rows, the fit's Ψ (PPCA: σ² everywhere) and their
/// ratio Ψ_d / Var x_d, the share of a pixel's variance the fit calls noise (white: all).
class NoiseTiles : public ImageTiles {
    Q_OBJECT
  public:
    explicit NoiseTiles(QWidget* parent = nullptr) : ImageTiles(parent) {}
    void show(const fa::LatentLiveSnapshot& s);
};

#!/usr/bin/env sh
# Renders the extension's icons (public/icon/*.png, listed in wxt.config.ts) from splitbrain.svg: the panel's
# BrandMark on the accent colour. Needs rsvg-convert (Debian: apt-get install librsvg2-bin).
set -eu
cd "$(dirname "$0")/../.."
for size in 16 32 48 128; do rsvg-convert -w "$size" -h "$size" scripts/icons/splitbrain.svg -o "public/icon/$size.png"; done

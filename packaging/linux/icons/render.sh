#!/bin/sh
# Renders the scalable icon to the hicolor PNG sizes next to it.
# Needs rsvg-convert (Debian: apt-get install librsvg2-bin).
set -eu
cd "$(dirname "$0")"
svg=org.queuescope.Queuescope.svg
for size in 16 24 32 48 64 128 256; do
    dir="hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    rsvg-convert --width "$size" --height "$size" --format png \
        --output "$dir/org.queuescope.Queuescope.png" "$svg"
done

#!/bin/sh
# Fetches the pinned echarts library with `npm pack`, checks its sha256 and
# puts dist/echarts.min.js, LICENSE and NOTICE into templates/assets/ (a
# git-ignored folder the templates package embeds).
set -eu
version="${1:-5.6.0}"
dir="$(cd "$(dirname "$0")" && pwd)"
want="$(cat "$dir/echarts.sha256")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "echarts@$version" >/dev/null)
tar -xzf "$tmp/echarts-$version.tgz" -C "$tmp" package/dist/echarts.min.js package/LICENSE package/NOTICE
got="$(sha256sum "$tmp/package/dist/echarts.min.js" | cut -d' ' -f1)"
if [ "$got" != "$want" ]; then
	echo "echarts.min.js sha256 $got, expected $want" >&2
	exit 1
fi
mkdir -p "$dir/assets"
cp "$tmp/package/LICENSE" "$dir/assets/echarts.LICENSE"
cp "$tmp/package/NOTICE" "$dir/assets/echarts.NOTICE"
cp "$tmp/package/dist/echarts.min.js" "$dir/assets/echarts.min.js"
echo "echarts $version fetched and verified" >&2

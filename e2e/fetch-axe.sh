#!/bin/sh
# Fetches the pinned axe-core (the accessibility rules the browser tests
# inject into report.html) with `npm pack`, checks the sha256 of axe.min.js
# against e2e/axe.sha256 and puts axe.min.js and its LICENSE into e2e/assets/
# (git-ignored). Test-only: nothing in the bundle uses it, and without it the
# accessibility test is skipped with a message.
set -eu
version="${1:-4.14.1}"
dir="$(cd "$(dirname "$0")" && pwd)"
want="$(cat "$dir/axe.sha256")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "axe-core@$version" >/dev/null)
tar -xzf "$tmp/axe-core-$version.tgz" -C "$tmp" package/axe.min.js package/LICENSE
got="$(sha256sum "$tmp/package/axe.min.js" | cut -d' ' -f1)"
if [ "$got" != "$want" ]; then
	echo "axe.min.js sha256 $got, expected $want" >&2
	exit 1
fi
mkdir -p "$dir/assets"
cp "$tmp/package/LICENSE" "$dir/assets/axe.LICENSE"
cp "$tmp/package/axe.min.js" "$dir/assets/axe.min.js"
echo "axe-core $version fetched and verified" >&2

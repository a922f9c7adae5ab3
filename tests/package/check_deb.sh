#!/usr/bin/env bash
# The Debian package, as scripts/package makes it: CPack packs this build tree, the .deb is unpacked into a scratch
# root (dpkg-deb -x, no install), and the programs run from there, far from the source and build trees:
#   - the copyright file (DEP-5): the project's MIT licence, the statically linked CUDA runtime's licence
#   - the control fields: name, version, amd64, Depends computed from the binaries (libc6, Qt) plus the run-time
#     ones (fonts-dejavu-core), and nothing of CUDA (not a Debian package: the CUDA runtime is linked statically)
#   - every library the packaged programs need resolves without LD_LIBRARY_PATH, and none is CUDA's
#   - the packaged CLI's demo writes the same images as the build tree's CLI, and its report; also with the CUDA
#     toolkit's libraries hidden (where the test may make a mount namespace)
#   - the man pages: one per program, from its --help (each subcommand of the CLI has its section)
#   - the Python module, where the build has one: it imports from the scratch root and runs a kernel
#   - the desktop entry (desktop-file-validate), the AppStream metainfo (appstreamcli validate), the icon
#   - the packaged app answers --version and renders a frame offscreen (--screenshot, Mesa's EGL without a GPU)
# Usage: check_deb.sh CPACK VERSION BUILD_DIR BUILD_CLI SCRATCH. Exit 77 (skipped) without Debian's tools.
set -euo pipefail
cpack=$1 version=$2 build=$3 build_cli=$4 scratch=$5

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps file desktop-file-validate appstreamcli help2man; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/setup installs it)"
done

rm -rf "$scratch"
mkdir -p "$scratch/run" "$scratch/reference"
# gzip instead of the package's xz: the same contents, packed in a fraction of the time.
if ! "$cpack" --config "$build/CPackConfig.cmake" -B "$scratch/cpack" -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip \
    >"$scratch/cpack.log" 2>&1; then
  cat "$scratch/cpack.log" >&2
  fail "cpack failed (its log is above)"
fi
deb=$scratch/cpack/kernelscope_${version}_amd64.deb
[ -f "$deb" ] || fail "cpack wrote no $deb: $(ls "$scratch/cpack")"
echo "package: $(basename "$deb"), $(du -h "$deb" | cut -f1)"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = kernelscope ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', the project's is $version"
[ "$(field Architecture)" = amd64 ] || fail "Architecture is '$(field Architecture)'"
depends=$(field Depends)
echo "Depends: $depends"
has_depend() { tr ',' '\n' <<<"$depends" | awk '{print $1}' | grep -qxF "$1"; }
for needed in libc6 libstdc++6 fonts-dejavu-core libpng16-16 libfmt9; do
  has_depend "$needed" || fail "Depends lacks $needed"
done
if grep -Eiq "cuda|nvidia|cublas|nvrtc" <<<"$depends"; then fail "Depends names CUDA, which Debian does not ship"; fi

root=$scratch/root
dpkg-deb -x "$deb" "$root"
cli=$root/usr/bin/kernelscope-cli
for f in usr/bin/kernelscope-cli usr/share/man/man1/kernelscope-cli.1.gz usr/share/kernelscope/kernels/vecadd.cu \
         usr/share/kernelscope/playlists/naive-tiled-separable.json usr/share/doc/kernelscope/README.md; do
  [ -f "$root/$f" ] || fail "the package has no /$f"
done
# The copyright file (Debian's machine-readable DEP-5 form): the project's MIT licence with its copyright line, the
# statically linked CUDA runtime under NVIDIA's licence, and a stand-alone licence paragraph for every short name the
# Files paragraphs use.
copyright=$root/usr/share/doc/kernelscope/copyright
[ -f "$copyright" ] || fail "the package has no /usr/share/doc/kernelscope/copyright"
head -n1 "$copyright" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  fail "the copyright file is not in DEP-5 form: its first line is '$(head -n1 "$copyright")'"
awk '/^Files: \*$/ {files = 1; next} files && /^Copyright:/ {c = $0} files && /^License:/ {l = $0; exit}
     END {exit !(c == "Copyright: 2026 the kernelscope developers" && l == "License: Expat")}' "$copyright" ||
  fail "the copyright file's 'Files: *' paragraph lacks the project's copyright line or the MIT (Expat) licence"
grep -q 'libcudart_static\.a' "$copyright" || fail "the copyright file does not name the statically linked CUDA runtime"
used=$(awk '/^Files:/ {files = 1} /^$/ {files = 0} files && /^License:/ {print $2}' "$copyright" | sort -u)
standalone=$(awk '/^$/ {start = 1; next} start && /^License:/ {print $2} {start = 0}' "$copyright" | sort -u)
for name in $used; do
  grep -qxF "$name" <<<"$standalone" || fail "the copyright file uses the licence '$name' and gives no paragraph for it"
done
if unresolved=$(ldd "$cli" | grep "not found"); then
  fail "kernelscope-cli needs libraries that are not here: $unresolved"
fi
if readelf -d "$cli" | grep -Eq "RPATH|RUNPATH"; then fail "the packaged CLI keeps a build-time library path"; fi
# No program may need a CUDA library to start: the machine may have no NVIDIA driver and no toolkit.
for program in "$root"/usr/bin/*; do
  if cuda=$(readelf -d "$program" | grep NEEDED | grep -Ei "cuda|cublas|nvrtc|cupti|nvidia"); then
    fail "$(basename "$program") needs CUDA's libraries to start: $cuda"
  fi
done

# The CLI: its version, and the demo (every kernel on the embedded sample) from a folder of its own.
[ "$("$cli" --version | cut -d' ' -f1-2)" = "kernelscope-cli $version" ] || fail "--version says '$("$cli" --version)'"
(cd "$scratch/run" && "$cli" demo --out demo --repeat 1 >demo.txt) || fail "the packaged CLI's demo failed"
(cd "$scratch/reference" && "$build_cli" demo --out demo --repeat 1 >demo.txt) || fail "the build's CLI's demo failed"
for image in input box gaussian sobel sharpen median; do
  png=$scratch/run/demo/$image.png
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$png is not a PNG"
  cmp -s "$png" "$scratch/reference/demo/$image.png" || fail "the packaged CLI's $image.png differs from the build's"
  [ "$image" = input ] && continue
  grep -q "$image.png" "$scratch/run/demo.txt" || fail "the demo's table has no $image row"
  grep -q "\"output\": \"demo/$image.png\"" "$scratch/run/demo/report.json" ||
    fail "the demo's report has no $image run"
done
grep -q '"schema": "kernelscope.demo/1"' "$scratch/run/demo/report.json" ||
  fail "the demo's report.json lacks its schema"

# On a machine without the CUDA toolkit: its library folders hidden under empty ones in a mount namespace of this
# test's own (where it runs as root), the packaged CLI still starts and runs the demo, and compiling a kernel of
# your own says that NVRTC is missing. A toolkit in a system folder (where the driver's libcuda lives too) cannot be
# hidden so: not checked there.
toolkit_dirs=$( (ldconfig -p | grep -E 'lib(cudart|cublas|nvrtc)\.so' | sed 's/.* => //' | xargs -r -n1 dirname
                 ls -d /usr/local/cuda*/lib* 2>/dev/null || true) | xargs -r -n1 realpath | sort -u)
system_dir='^(/usr)?/lib(64|32)?(/x86_64-linux-gnu)?$'
if [ -n "$toolkit_dirs" ] && ! grep -Eq "$system_dir" <<<"$toolkit_dirs" && [ "$(id -u)" = 0 ] &&
   unshare -m true 2>/dev/null; then
  mkdir -p "$scratch/empty" "$scratch/nocuda"
  hide=""
  for dir in $toolkit_dirs; do hide+="mount --bind '$scratch/empty' '$dir' && "; done
  unshare -m sh -c "$hide cd '$scratch/nocuda' && '$cli' demo --out demo --repeat 1 >demo.txt" ||
    fail "without the CUDA toolkit's libraries the packaged CLI's demo failed"
  cmp -s "$scratch/nocuda/demo/box.png" "$scratch/reference/demo/box.png" ||
    fail "without the CUDA toolkit's libraries the demo's box.png differs"
  if unshare -m sh -c "$hide '$cli' compile '$root/usr/share/kernelscope/kernels/vecadd.cu'" \
      >"$scratch/nocuda/compile.txt" 2>&1; then
    fail "compiling a kernel succeeded with NVRTC hidden: $(cat "$scratch/nocuda/compile.txt")"
  fi
  grep -q "NVRTC could not be loaded" "$scratch/nocuda/compile.txt" ||
    grep -q "this build has none" "$scratch/nocuda/compile.txt" ||
    fail "compiling without NVRTC says: $(cat "$scratch/nocuda/compile.txt")"
  echo "without the CUDA toolkit ($(echo $toolkit_dirs) hidden): the demo runs, compile says NVRTC is missing"
else
  echo "not checked without the CUDA toolkit: none here, or in a system folder, or no mount namespace (not root)"
fi

# The CLI's man page: help2man's, with a section per subcommand that the packaged CLI lists.
man_page() { gzip -dc "$root/usr/share/man/man1/$1.1.gz"; }
man_page kernelscope-cli | grep -q '^\.TH KERNELSCOPE-CLI "1"' || fail "kernelscope-cli.1 has no .TH line"
subcommands=$("$cli" --help | sed -n '/^Subcommands:/,$p' | grep -E '^  [a-z]' | awk '{print $1}')
[ "$(wc -l <<<"$subcommands")" -ge 8 ] || fail "the CLI's --help lists only: $subcommands"
for sub in $subcommands; do
  man_page kernelscope-cli | grep -q "^\.SS $sub\$" || fail "kernelscope-cli.1 has no section for '$sub'"
done
man_page kernelscope-cli | awk '/^\.SS demo$/ {on = 1; next} /^\.SS / {on = 0} on' | grep -q -- '\\-\\-repeat' ||
  fail "kernelscope-cli.1's section on demo lacks its option --repeat"

# The Python module, where the build has it: the packaged one imports from the scratch root into Debian's python3
# (the one its Depends name, not another python3 first on PATH) and runs a kernel.
shopt -s nullglob
python_dir=$root/usr/lib/python3/dist-packages
if [ -d "$python_dir/kernelscope" ]; then
  has_depend python3-numpy || fail "the package holds the Python module, and Depends lacks python3-numpy"
  (cd "$scratch/run" && PYTHONPATH="$python_dir" KS_WORKER="$cli" /usr/bin/python3 -c "
import numpy as np, kernelscope as ks
assert ks.__file__.startswith('$python_dir'), ks.__file__
image = np.arange(7 * 5, dtype=np.uint8).reshape(7, 5)
result = ks.run('box', image, backend='cpu')
assert result.output.shape == (7, 5) and result.output.dtype == np.uint8, result.output
print('python: kernelscope from', ks.__file__, 'ran box on a 7x5 image')
") || fail "the packaged Python module does not import or run"
fi

desktop=("$root"/usr/share/applications/*.desktop)
if [ -x "$root/usr/bin/kernelscope" ]; then
  app=$root/usr/bin/kernelscope
  [ ${#desktop[@]} = 1 ] || fail "the package has ${#desktop[@]} desktop entries"
  desktop-file-validate "${desktop[0]}" || fail "desktop-file-validate refuses ${desktop[0]}"
  grep -q '^Exec=kernelscope' "${desktop[0]}" || fail "the desktop entry does not start kernelscope"
  icon=$(sed -n 's/^Icon=//p' "${desktop[0]}")
  [ -f "$root/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "no hicolor icon named '$icon'"
  metainfo=("$root"/usr/share/metainfo/*.metainfo.xml)
  [ ${#metainfo[@]} = 1 ] || fail "the package has ${#metainfo[@]} metainfo files"
  appstreamcli validate --no-net "${metainfo[0]}" || fail "appstreamcli refuses ${metainfo[0]}"
  grep -q "<launchable type=\"desktop-id\">$(basename "${desktop[0]}")</launchable>" "${metainfo[0]}" ||
    fail "the metainfo does not launch $(basename "${desktop[0]}")"
  has_depend qt6-qpa-plugins || fail "Depends lacks qt6-qpa-plugins (the app's window needs it)"
  has_depend libqt6widgets6 || fail "Depends lacks libqt6widgets6"
  if unresolved=$(ldd "$app" | grep "not found"); then
    fail "kernelscope needs libraries that are not here: $unresolved"
  fi
  man_page kernelscope | grep -q '^\.TH KERNELSCOPE "1"' || fail "kernelscope.1 has no .TH line"
  man_page kernelscope | grep -q '^\.SS kernelscope \\-\\-screenshot' ||
    fail "kernelscope.1 lacks --screenshot's options"
  [ "$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" --version)" = "kernelscope $version" ] ||
    fail "the app's --version (without a display) says '$("$app" --version 2>&1)'"
  (cd "$scratch/run" && env -u DISPLAY -u WAYLAND_DISPLAY "$app" --screenshot frame.png --kernel sobel --size 320x200 \
    --backend cpu >screenshot.txt 2>&1) || {
    cat "$scratch/run/screenshot.txt" >&2
    fail "the packaged app's --screenshot failed"
  }
  # The PNG's IHDR: width and height as 4-byte big-endian numbers at bytes 16 and 20.
  size=$(od -An -tu1 -j16 -N8 "$scratch/run/frame.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
  [ "$size" = 320x200 ] || fail "the app's frame is $size, asked for 320x200"
else
  [ ${#desktop[@]} = 0 ] || fail "a package without the app has a desktop entry"
fi
echo "the package unpacks, and its programs run from it"
rm -rf "$scratch"  # about 100 MB; a failed run leaves it for a look

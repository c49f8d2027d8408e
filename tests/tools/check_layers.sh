#!/usr/bin/env bash
# The layering the folders promise, checked on the sources and on the built CLI:
#  - core/ (the engine and its file library) includes no Qt header and nothing from ui/ or app/;
#  - each folder of core/ includes only the folders its library may use (core/CMakeLists.txt):
#    the base folders nothing above them, core/io and core/vi only the base, a lab folder no
#    other lab (what labs share lives in core/models, core/data or core/lab), core/io no lab;
#  - ui/ includes nothing from app/;
#  - the shell knows no lab: no lab id in quotes in app/gui or ui/shell outside the registry
#    (ui/shell/Labs.cpp), no widget found by object name there (LabPage hands them over), and
#    the view tools do not include the window that owns them;
#  - the CLI, which links only core/ and core/io/, loads no Qt library;
#  - no source file is over 400 lines.
# Usage: check_layers.sh SOURCE_DIR CLI_BINARY
set -u
src=$1
cli=$2
fail=0
complain() { echo "check_layers: $*" >&2; fail=1; }

hits=$(grep -rnE '^\s*#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/)' "$src/core" --include='*.h' --include='*.cpp')
[ -n "$hits" ] && complain "Qt header in the engine:"$'\n'"$hits"
hits=$(grep -rnE '^\s*#\s*include\s*"(ui|app)/' "$src/core" --include='*.h' --include='*.cpp')
[ -n "$hits" ] && complain "the engine includes from ui/ or app/:"$'\n'"$hits"
# What each folder of core/ may include: the same graph as its libraries (core/CMakeLists.txt),
# whose link checks fail on a call across; this finds an include at once, and inline code too.
base="math fa metrics data lab optim models"
declare -A may=([io]="$base io" [vi]="$base vi" [explorer]="$base io explorer"
                [latent]="$base io latent" [vae]="$base io vae" [posterior]="$base io vi posterior"
                [neural]="$base io vi neural" [bench]="$base io vi explorer neural posterior bench")
for folder in $base; do may[$folder]=$base; done
for dir in "$src"/core/*/; do
  folder=$(basename "$dir")
  if [ -z "${may[$folder]:-}" ]; then
    complain "core/$folder is in no layer: add it to check_layers.sh and core/CMakeLists.txt"
    continue
  fi
  hits=$(grep -rnE '^\s*#\s*include\s*"core/' "$dir" --include='*.h' --include='*.cpp' |
         grep -vE "#\s*include\s*\"core/(${may[$folder]// /|})/")
  case $folder in
  explorer | posterior | neural | latent | vae)
    why="a lab includes another lab or a folder it may not use (what labs share goes in core/models, core/data or core/lab)" ;;
  io) why="core/io includes a lab or a folder above the base (a lab's CSV rows live in the lab's folder)" ;;
  *) why="core/$folder includes a folder above its layer" ;;
  esac
  [ -n "$hits" ] && complain "$why; core/$folder may use ${may[$folder]// /, }:"$'\n'"$hits"
done
hits=$(grep -rnE '^\s*#\s*include\s*"app/' "$src/ui" --include='*.h' --include='*.cpp')
[ -n "$hits" ] && complain "ui/ includes from app/:"$'\n'"$hits"
hits=$(grep -rnE '"(explorer|posterior|neural|latent|nonlinear)"' "$src/app/gui" "$src/ui/shell" \
       --include='*.h' --include='*.cpp' | grep -vF "$src/ui/shell/Labs.cpp:")
[ -n "$hits" ] && complain "a lab id outside the lab registry (ask the page, ui/common/LabPage.h):"$'\n'"$hits"
hits=$(grep -rnE 'findChild<[^>]*>\(\s*"' "$src/app/gui" "$src/ui/shell" --include='*.h' --include='*.cpp')
[ -n "$hits" ] && complain "a widget found by object name in the shell (LabPage hands it over):"$'\n'"$hits"
hits=$(grep -nE '^\s*#\s*include\s*"ui/shell/MainWindow\.h"' "$src"/ui/shell/ViewControls.*)
[ -n "$hits" ] && complain "the view tools include the window that owns them (ViewControls::Host):"$'\n'"$hits"
hits=$(grep -rnE '^\s*#\s*include\s*"[A-Za-z]+\.h"' "$src/core" "$src/ui" "$src/app" --include='*.h' --include='*.cpp')
[ -n "$hits" ] && complain "an include without its folder:"$'\n'"$hits"

if ! command -v ldd >/dev/null; then
  complain "ldd not found"
elif ldd "$cli" | grep -qi 'libQt'; then
  complain "$cli links Qt:"$'\n'"$(ldd "$cli" | grep -i libQt)"
fi

big=$(find "$src/core" "$src/ui" "$src/app" "$src/tests" -name '*.cpp' -o -name '*.h' | xargs wc -l |
      awk '$2 != "total" && $1 > 400 {print "  " $2 " (" $1 " lines)"}')
[ -n "$big" ] && complain "source files over 400 lines:"$'\n'"$big"

[ $fail -eq 0 ] && echo "check_layers: core is Qt-free, no include reaches up a layer or across to another lab, the shell compares no lab id, the CLI loads no Qt, no file over 400 lines"
exit $fail

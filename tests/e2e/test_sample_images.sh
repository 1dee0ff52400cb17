# The PNGs under samples/ are what the rules and tlv render draw now
# (samples/render_all.sh --check): the shapes of every sample match the
# checksums of samples/render.manifest everywhere, and the PNG bytes match
# the committed images when the fonts are the ones recorded there (text is
# drawn with the fonts fontconfig finds, so other machines only check that
# every sample renders).
. "$(dirname "$0")/lib.sh"
run env TLV="$TLV" bash "$SRC/samples/render_all.sh" --check
expect_status 0 "samples/render_all.sh --check"
cat "$TMP/out"
finish

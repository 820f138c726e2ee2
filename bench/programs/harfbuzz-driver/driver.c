/* A driver for HarfBuzz (the corpus's harfbuzz-O0.ll and harfbuzz-O2.ll hold both): without a
 * font file, it fills and combines sets and maps, walks the Unicode tables, and shapes text
 * in five scripts with an empty face, printing populations, hashes and the glyphs shaped, so
 * that a build from merged IR must compute exactly what the build from the input does. */
#include <stdio.h>
#include <hb.h>

static void shape(const char *text, const char *lang) {
    hb_face_t *face = hb_face_create(hb_blob_get_empty(), 0);
    hb_font_t *font = hb_font_create(face);
    hb_buffer_t *buf = hb_buffer_create();
    hb_buffer_add_utf8(buf, text, -1, 0, -1);
    hb_buffer_set_language(buf, hb_language_from_string(lang, -1));
    hb_buffer_guess_segment_properties(buf);
    hb_feature_t features[2];
    hb_feature_from_string("kern", -1, &features[0]);
    hb_feature_from_string("-liga", -1, &features[1]);
    hb_shape(font, buf, features, 2);
    char glyphs[4096];
    unsigned int consumed = 0;
    hb_buffer_serialize_glyphs(buf, 0, hb_buffer_get_length(buf), glyphs, sizeof glyphs,
                               &consumed, font, HB_BUFFER_SERIALIZE_FORMAT_TEXT,
                               HB_BUFFER_SERIALIZE_FLAG_DEFAULT);
    char script[5] = {0};
    hb_tag_to_string(hb_script_to_iso15924_tag(hb_buffer_get_script(buf)), script);
    const char *direction = hb_direction_to_string(hb_buffer_get_direction(buf));
    printf("%s [%s] %s: %s\n", lang, script, direction, glyphs);
    hb_buffer_destroy(buf);
    hb_font_destroy(font);
    hb_face_destroy(face);
}

int main(void) {
    hb_set_t *s = hb_set_create();
    for (unsigned i = 0; i < 5000; i += 7)
        hb_set_add(s, i * i % 65521);
    hb_set_add_range(s, 100000, 100500);
    hb_set_t *t = hb_set_create();
    for (unsigned i = 0; i < 3000; i += 3)
        hb_set_add(t, i);
    hb_set_t *both = hb_set_copy(s);
    hb_set_union(both, t);
    hb_set_t *common = hb_set_copy(s);
    hb_set_intersect(common, t);
    hb_set_t *only = hb_set_copy(s);
    hb_set_subtract(only, t);
    printf("sets %u %u %u %u %u min %u max %u\n", hb_set_get_population(s),
           hb_set_get_population(t), hb_set_get_population(both), hb_set_get_population(common),
           hb_set_get_population(only), hb_set_get_min(both), hb_set_get_max(both));
    hb_codepoint_t c = HB_SET_VALUE_INVALID;
    unsigned long walk = 0;
    while (hb_set_next(only, &c))
        walk = walk * 31 + c;
    printf("walk %lu\n", walk);

    hb_map_t *m = hb_map_create();
    for (unsigned i = 0; i < 2000; i++)
        hb_map_set(m, i * 2654435761u % 100003, i);
    unsigned long found = 0;
    for (unsigned i = 0; i < 100003; i += 13)
        if (hb_map_has(m, i))
            found += hb_map_get(m, i);
    printf("map %u %lu\n", hb_map_get_population(m), found);

    hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
    unsigned long props = 0;
    for (hb_codepoint_t cp = 0; cp < 0x3000; cp++)
        props = props * 7 + hb_unicode_general_category(unicode, cp) +
                hb_unicode_combining_class(unicode, cp) + hb_unicode_script(unicode, cp);
    printf("unicode %lu\n", props);

    shape("Hello, world! ffi", "en");
    shape("\xd8\xb3\xd9\x84\xd8\xa7\xd9\x85 \xd8\xb9\xd9\x84\xd9\x8a\xd9\x83\xd9\x85", "ar");
    shape("\xe0\xa4\xa8\xe0\xa4\xae\xe0\xa4\xb8\xe0\xa5\x8d\xe0\xa4\xa4\xe0\xa5\x87", "hi");
    shape("\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96\xe7\x95\x8c", "zh");
    shape("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d", "he");
    printf("version %s\n", hb_version_string());

    hb_set_destroy(s);
    hb_set_destroy(t);
    hb_set_destroy(both);
    hb_set_destroy(common);
    hb_set_destroy(only);
    hb_map_destroy(m);
    return 0;
}

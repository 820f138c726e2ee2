/* Driver for SPIRV-Cross (bundled in the spirv_cross crate), through its C API: each of our four
   shaders (shaders.h) translated to GLSL, GLSL ES, Vulkan GLSL, HLSL, MSL, C++ and reflection
   JSON, with its resources listed. Everything it prints depends only on the shaders. */
#include <stdio.h>
#include <string.h>
#include "shaders.h"
#include "spirv_cross_c.h"

struct shader {
  const char *name;
  const uint32_t *words;
  size_t count;
};

struct target {
  const char *name;
  spvc_backend backend;
  /* Options set on the compiler: (option, value) pairs ended by a zero option. */
  unsigned options[4][2];
};

static void on_error(void *userdata, const char *error) {
  (void)userdata;
  printf("error: %s\n", error);
}

static const char *resource_kinds[] = {"uniform buffer", "storage buffer", "stage input",
                                       "stage output", "subpass input", "storage image",
                                       "sampled image", "atomic counter", "push constant",
                                       "separate image", "separate sampler"};

static void list_resources(spvc_compiler compiler) {
  spvc_resources resources;
  if (spvc_compiler_create_shader_resources(compiler, &resources) != SPVC_SUCCESS) return;
  for (int kind = SPVC_RESOURCE_TYPE_UNIFORM_BUFFER; kind <= SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS;
       kind++) {
    const spvc_reflected_resource *list;
    size_t count;
    if (spvc_resources_get_resource_list_for_type(resources, kind, &list, &count) != SPVC_SUCCESS)
      continue;
    for (size_t i = 0; i < count; i++) {
      spvc_type type = spvc_compiler_get_type_handle(compiler, list[i].base_type_id);
      size_t size = 0;
      if (spvc_type_get_basetype(type) == SPVC_BASETYPE_STRUCT)
        spvc_compiler_get_declared_struct_size(compiler, type, &size);
      printf("  %s %s: set %u binding %u location %u, %zu bytes\n", resource_kinds[kind - 1],
             list[i].name, spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationDescriptorSet),
             spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationBinding),
             spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationLocation), size);
    }
  }
}

static void translate(const struct shader *shader, const struct target *target) {
  spvc_context context;
  if (spvc_context_create(&context) != SPVC_SUCCESS) return;
  spvc_context_set_error_callback(context, on_error, NULL);
  spvc_parsed_ir ir;
  spvc_compiler compiler;
  spvc_compiler_options options;
  const char *source = NULL;
  printf("=== %s as %s\n", shader->name, target->name);
  if (spvc_context_parse_spirv(context, shader->words, shader->count, &ir) == SPVC_SUCCESS &&
      spvc_context_create_compiler(context, target->backend, ir,
                                   SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) == SPVC_SUCCESS &&
      spvc_compiler_create_compiler_options(compiler, &options) == SPVC_SUCCESS) {
    for (int i = 0; i < 4 && target->options[i][0]; i++)
      spvc_compiler_options_set_uint(options, target->options[i][0], target->options[i][1]);
    spvc_compiler_install_compiler_options(compiler, options);
    if (spvc_compiler_compile(compiler, &source) == SPVC_SUCCESS) {
      fputs(source, stdout);
      list_resources(compiler);
    }
  }
  spvc_context_destroy(context);
}

int main(void) {
  const struct shader shaders[] = {
      {"lights.frag", lights_frag, sizeof lights_frag / sizeof lights_frag[0]},
      {"reduce.comp", reduce_comp, sizeof reduce_comp / sizeof reduce_comp[0]},
      {"skin.vert", skin_vert, sizeof skin_vert / sizeof skin_vert[0]},
      {"tessellate.tesc", tessellate_tesc, sizeof tessellate_tesc / sizeof tessellate_tesc[0]},
  };
  const struct target targets[] = {
      {"GLSL 450", SPVC_BACKEND_GLSL, {{SPVC_COMPILER_OPTION_GLSL_VERSION, 450}}},
      {"GLSL ES 310", SPVC_BACKEND_GLSL,
       {{SPVC_COMPILER_OPTION_GLSL_VERSION, 310}, {SPVC_COMPILER_OPTION_GLSL_ES, 1}}},
      {"Vulkan GLSL", SPVC_BACKEND_GLSL,
       {{SPVC_COMPILER_OPTION_GLSL_VERSION, 460},
        {SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, 1},
        {SPVC_COMPILER_OPTION_FLIP_VERTEX_Y, 1}}},
      {"HLSL 5.0", SPVC_BACKEND_HLSL, {{SPVC_COMPILER_OPTION_HLSL_SHADER_MODEL, 50}}},
      {"HLSL 6.0", SPVC_BACKEND_HLSL, {{SPVC_COMPILER_OPTION_HLSL_SHADER_MODEL, 60}}},
      {"MSL 2.1", SPVC_BACKEND_MSL,
       {{SPVC_COMPILER_OPTION_MSL_VERSION, SPVC_MAKE_MSL_VERSION(2, 1, 0)}}},
      {"C++", SPVC_BACKEND_CPP, {{0}}},
      {"reflection", SPVC_BACKEND_JSON, {{0}}},
  };
  for (size_t s = 0; s < sizeof shaders / sizeof shaders[0]; s++)
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
      translate(&shaders[s], &targets[t]);
  return 0;
}

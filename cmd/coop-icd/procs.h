// The command table of coop's Vulkan driver (procs_gen.c, generated) and
// the entry points written in C.
#include <stdint.h>

typedef void (*PFN_coop)(void);

struct coop_proc {
	const char *name;
	PFN_coop fn;
	int physdev; // the command's first parameter is a VkPhysicalDevice
};

extern const struct coop_proc coop_procs[];
extern const int coop_nprocs;

PFN_coop coop_vkGetInstanceProcAddr(void *instance, const char *name);
PFN_coop coop_vkGetDeviceProcAddr(void *device, const char *name);

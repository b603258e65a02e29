// The loader-driver interface of coop's Vulkan driver (see the Vulkan
// loader's LoaderDriverInterface.md): version negotiation and the
// procedure-address queries, answered from the generated command table.
#include <string.h>
#include "procs.h"

// The interface version this driver implements: 5 (Vulkan 1.1+ instance
// versions, vk_icdGetPhysicalDeviceProcAddr); 6 and 7 add nothing it needs.
#define COOP_ICD_INTERFACE 5

static const struct coop_proc *find(const char *name) {
	if (name == NULL) {
		return NULL;
	}
	int lo = 0, hi = coop_nprocs - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(name, coop_procs[mid].name);
		if (c == 0) {
			return &coop_procs[mid];
		}
		if (c < 0) {
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	return NULL;
}

int32_t vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *version) {
	if (version == NULL || *version < 4) {
		return -9; // VK_ERROR_INCOMPATIBLE_DRIVER
	}
	if (*version > COOP_ICD_INTERFACE) {
		*version = COOP_ICD_INTERFACE;
	}
	return 0;
}

PFN_coop vk_icdGetInstanceProcAddr(void *instance, const char *name) {
	const struct coop_proc *p = find(name);
	return p ? p->fn : NULL;
}

// Only physical-device commands are answered here: the loader asks for the
// ones it does not know (newer extensions') this way.
PFN_coop vk_icdGetPhysicalDeviceProcAddr(void *instance, const char *name) {
	const struct coop_proc *p = find(name);
	return p && p->physdev ? p->fn : NULL;
}

PFN_coop coop_vkGetInstanceProcAddr(void *instance, const char *name) {
	return vk_icdGetInstanceProcAddr(instance, name);
}

PFN_coop coop_vkGetDeviceProcAddr(void *device, const char *name) {
	return vk_icdGetInstanceProcAddr(NULL, name);
}

// coop_call_messenger calls a VK_EXT_debug_utils callback
// (PFN_vkDebugUtilsMessengerCallbackEXT) for package icd.
typedef uint32_t (*coop_messenger_fn)(uint32_t severity, uint32_t types, const void *data, void *user);

void coop_call_messenger(uintptr_t fn, uint32_t severity, uint32_t types, void *data, void *user) {
	((coop_messenger_fn)fn)(severity, types, data, user);
}

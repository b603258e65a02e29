// A small Vulkan compute application in C, run by TestCApplication
// against coop's driver through the loader: instance with a debug
// messenger, device with a cooperative-matrix-2 feature chain, memory,
// buffers, a descriptor set, push constants, a timeline semaphore, a
// timestamp query, a pipeline the driver must refuse for its
// specialization with a message, and
// push descriptors through an update template in a secondary command buffer;
// with a third module, images (images.comp): format queries, a linear
// storage image written through its mapped memory, an optimal one cleared
// and sampled through an immutable sampler, a texel buffer, layout
// transitions by synchronization2 barriers and a copy back to a buffer.
// Usage: app good.spv bad.spv [images.spv]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

static int messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
		VkDebugUtilsMessageTypeFlagsEXT types, const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
	if (sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
		printf("message: %s\n", data->pMessage);
		messages++;
	}
	return VK_FALSE;
}

#define CHECK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { printf("FAIL %s: %d\n", #x, r_); return 1; } } while (0)

static uint32_t *readFile(const char *path, size_t *size) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint32_t *p = malloc(*size);
	if (fread(p, 1, *size, f) != *size) { fclose(f); return NULL; }
	fclose(f);
	return p;
}

static VkShaderModule loadModule(VkDevice dev, const char *path) {
	size_t size;
	uint32_t *code = readFile(path, &size);
	if (!code) return VK_NULL_HANDLE;
	VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, size, code};
	VkShaderModule sm = VK_NULL_HANDLE;
	vkCreateShaderModule(dev, &smci, NULL, &sm);
	free(code);
	return sm;
}

static int submitWait(VkDevice dev, VkQueue q, VkCommandBuffer cb) {
	VkCommandBufferSubmitInfo cbsi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, NULL, cb, 0};
	VkSubmitInfo2 si = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2, NULL, 0, 0, NULL, 1, &cbsi, 0, NULL};
	CHECK(vkQueueSubmit2(q, 1, &si, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(q));
	return 0;
}

static void transition(VkCommandBuffer cb, VkImage img, VkImageLayout from, VkImageLayout to) {
	VkImageMemoryBarrier2 ib = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2, NULL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT, from, to,
		VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, img, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	VkDependencyInfo di = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO, NULL, 0, 0, NULL, 0, NULL, 1, &ib};
	vkCmdPipelineBarrier2(cb, &di);
}

// images runs images.comp: img(x, y) = 10 img(x, y) + tex(x, y) + tb[4y + x]
// with img a linear 4x2 R32_UINT storage image holding 4y + x, tex an
// optimal one cleared to 7, tb a texel buffer holding 100 i.
static int images(VkPhysicalDevice pd, VkDevice dev, VkQueue q, VkCommandPool cp, const char *spv) {
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(pd, VK_FORMAT_R32_UINT, &fp);
	if (!(fp.linearTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) || !(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT) ||
		!(fp.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT)) {
		printf("FAIL R32_UINT features %#x %#x %#x\n", fp.linearTilingFeatures, fp.optimalTilingFeatures, fp.bufferFeatures);
		return 1;
	}
	VkImageFormatProperties ifp;
	if (vkGetPhysicalDeviceImageFormatProperties(pd, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
			VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &ifp) != VK_ERROR_FORMAT_NOT_SUPPORTED) {
		printf("FAIL a color attachment is supported\n");
		return 1;
	}
	VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, NULL, 0, VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, {4, 2, 1}, 1, 1,
		VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TILING_LINEAR, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		VK_SHARING_MODE_EXCLUSIVE, 0, NULL, VK_IMAGE_LAYOUT_PREINITIALIZED};
	VkImage img[2];
	VkDeviceMemory imem[2];
	CHECK(vkCreateImage(dev, &ici, NULL, &img[0]));
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	CHECK(vkCreateImage(dev, &ici, NULL, &img[1]));
	for (int i = 0; i < 2; i++) {
		VkMemoryRequirements req;
		vkGetImageMemoryRequirements(dev, img[i], &req);
		VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size, 1};
		CHECK(vkAllocateMemory(dev, &mai, NULL, &imem[i]));
		VkBindImageMemoryInfo bimi = {VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, NULL, img[i], imem[i], 0};
		CHECK(vkBindImageMemory2(dev, 1, &bimi));
	}
	VkImageSubresource isr = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
	VkSubresourceLayout sl;
	vkGetImageSubresourceLayout(dev, img[0], &isr, &sl);
	char *texels;
	CHECK(vkMapMemory(dev, imem[0], 0, VK_WHOLE_SIZE, 0, (void **)&texels));
	for (uint32_t y = 0; y < 2; y++)
		for (uint32_t x = 0; x < 4; x++)
			((uint32_t *)(texels + sl.offset + y * sl.rowPitch))[x] = 4 * y + x;

	VkImageView views[2];
	for (int i = 0; i < 2; i++) {
		VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, NULL, 0, img[i], VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32_UINT,
			{0}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}};
		CHECK(vkCreateImageView(dev, &vci, NULL, &views[i]));
	}
	VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	VkSampler smp;
	CHECK(vkCreateSampler(dev, &sci, NULL, &smp));
	VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, 64,
		VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
	VkBuffer bufs[2];
	VkDeviceMemory bmem;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[0]));
	CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[1]));
	VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, 128, 1};
	CHECK(vkAllocateMemory(dev, &mai, NULL, &bmem));
	CHECK(vkBindBufferMemory(dev, bufs[0], bmem, 0));
	CHECK(vkBindBufferMemory(dev, bufs[1], bmem, 64));
	uint32_t *words;
	CHECK(vkMapMemory(dev, bmem, 0, VK_WHOLE_SIZE, 0, (void **)&words));
	for (uint32_t i = 0; i < 8; i++) words[i] = 100 * i;
	VkBufferViewCreateInfo bvci = {VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, NULL, 0, bufs[0], VK_FORMAT_R32_UINT, 0, 32};
	VkBufferView bv;
	CHECK(vkCreateBufferView(dev, &bvci, NULL, &bv));

	VkDescriptorSetLayoutBinding b[3] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
		{1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &smp},
		{2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 3, b};
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &dsl};
	VkPipelineLayout pl;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));
	VkShaderModule sm = loadModule(dev, spv);
	if (!sm) return 2;
	VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage = (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
		VK_SHADER_STAGE_COMPUTE_BIT, sm, "main", NULL};
	cpci.layout = pl;
	VkPipeline pipe;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
	VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
		{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}};
	VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 3, ps};
	VkDescriptorPool dp;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
	VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 1, &dsl};
	VkDescriptorSet ds;
	CHECK(vkAllocateDescriptorSets(dev, &dsai, &ds));
	// The combined image sampler's sampler is the layout's immutable one.
	VkDescriptorImageInfo dii[2] = {{VK_NULL_HANDLE, views[0], VK_IMAGE_LAYOUT_GENERAL},
		{VK_NULL_HANDLE, views[1], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
	VkWriteDescriptorSet w[3] = {
		{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, &dii[0]},
		{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds, 1, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &dii[1]},
		{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds, 2, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, NULL, NULL, &bv}};
	vkUpdateDescriptorSets(dev, 3, w, 0, NULL);

	VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, cp, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(dev, &cbai, &cb));
	VkCommandBufferBeginInfo cbbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	CHECK(vkBeginCommandBuffer(cb, &cbbi));
	transition(cb, img[0], VK_IMAGE_LAYOUT_PREINITIALIZED, VK_IMAGE_LAYOUT_GENERAL);
	transition(cb, img[1], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	VkClearColorValue seven = {.uint32 = {7}};
	VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdClearColorImage(cb, img[1], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &seven, 1, &all);
	transition(cb, img[1], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
	vkCmdDispatch(cb, 1, 1, 1);
	transition(cb, img[0], VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	VkBufferImageCopy bic = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 2, 1}};
	vkCmdCopyImageToBuffer(cb, img[0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, bufs[1], 1, &bic);
	CHECK(vkEndCommandBuffer(cb));
	if (submitWait(dev, q, cb)) return 1;
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t want = 10 * i + 7 + 100 * i;
		if (words[16 + i] != want) {
			printf("FAIL image texel %u = %u, want %u\n", i, words[16 + i], want);
			return 1;
		}
	}
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyShaderModule(dev, sm, NULL);
	vkDestroyDescriptorPool(dev, dp, NULL);
	vkDestroyPipelineLayout(dev, pl, NULL);
	vkDestroyDescriptorSetLayout(dev, dsl, NULL);
	vkDestroyBufferView(dev, bv, NULL);
	vkDestroySampler(dev, smp, NULL);
	for (int i = 0; i < 2; i++) {
		vkDestroyImageView(dev, views[i], NULL);
		vkDestroyImage(dev, img[i], NULL);
		vkFreeMemory(dev, imem[i], NULL);
		vkDestroyBuffer(dev, bufs[i], NULL);
	}
	vkFreeMemory(dev, bmem, NULL);
	return 0;
}

int main(int argc, char **argv) {
	if (argc != 3 && argc != 4) return 2;
	VkDebugUtilsMessengerCreateInfoEXT mci = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
	mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
	mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
	mci.pfnUserCallback = onMessage;
	const char *exts[] = {"VK_EXT_debug_utils"};
	VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "app", 1, "none", 1, VK_API_VERSION_1_3};
	VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &mci, 0, &app, 0, NULL, 1, exts};
	VkInstance inst;
	CHECK(vkCreateInstance(&ici, NULL, &inst));
	uint32_t n = 1;
	VkPhysicalDevice pd;
	CHECK(vkEnumeratePhysicalDevices(inst, &n, &pd));
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(pd, &props);
	printf("device: %s\n", props.deviceName);

	// Features through a chain the loader does not know all of.
	VkPhysicalDeviceVulkan13Features f13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
	VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
	vkGetPhysicalDeviceFeatures2(pd, &f2);
	if (!f12.timelineSemaphore || !f12.bufferDeviceAddress || !f13.synchronization2 || f2.features.geometryShader) {
		printf("FAIL features\n");
		return 1;
	}
	float prio = 1;
	VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, 0, 1, &prio};
	const char *dexts[] = {"VK_KHR_cooperative_matrix", "VK_NV_cooperative_matrix2", "VK_KHR_push_descriptor"};
	VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2, 0, 1, &qci, 0, NULL, 3, dexts, NULL};
	VkDevice dev;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
	VkQueue q;
	vkGetDeviceQueue(dev, 0, 0, &q);

	// A geometry-shader request is refused.
	VkPhysicalDeviceFeatures bad = {0};
	bad.geometryShader = VK_TRUE;
	VkDeviceCreateInfo dci2 = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &qci, 0, NULL, 0, NULL, &bad};
	VkDevice dev2;
	if (vkCreateDevice(pd, &dci2, NULL, &dev2) != VK_ERROR_FEATURE_NOT_PRESENT) {
		printf("FAIL geometry shader accepted\n");
		return 1;
	}

	const uint32_t N = 256;
	VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, 4 * N, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
	VkBuffer buf;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &buf));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(dev, buf, &req);
	VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size + 256, 1};
	VkDeviceMemory mem;
	CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
	CHECK(vkBindBufferMemory(dev, buf, mem, 256));
	uint32_t *mapped;
	CHECK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&mapped));

	/* Binding 1 is not used by the shader: it will hold a destroyed buffer. */
	VkDescriptorSetLayoutBinding b[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
		{1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
	VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 2, b};
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
	VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &dsl, 1, &pcr};
	VkPipelineLayout pl;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));

	VkPipeline pipes[2];
	for (int i = 0; i < 2; i++) {
		size_t size;
		uint32_t *code = readFile(argv[1 + i], &size);
		if (!code) return 2;
		VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, size, code};
		VkShaderModule sm;
		CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
		// The second module breaks a device rule only as specialized.
		uint32_t mul = i == 0 ? 3 : 8;
		VkSpecializationMapEntry me = {7, 0, 4};
		VkSpecializationInfo si = {1, &me, 4, &mul};
		VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
		cpci.stage = (VkPipelineShaderStageCreateInfo){VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
			VK_SHADER_STAGE_COMPUTE_BIT, sm, "main", &si};
		cpci.layout = pl;
		VkResult r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipes[i]);
		if ((r == VK_SUCCESS) != (i == 0)) {
			printf("FAIL pipeline %d: %d\n", i, r);
			return 1;
		}
		vkDestroyShaderModule(dev, sm, NULL);
	}
	if (messages == 0) {
		printf("FAIL no debug message for the refused pipeline\n");
		return 1;
	}

	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
	VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps};
	VkDescriptorPool dp;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
	VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, dp, 1, &dsl};
	VkDescriptorSet ds;
	CHECK(vkAllocateDescriptorSets(dev, &dsai, &ds));
	VkDescriptorBufferInfo dbi = {buf, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &dbi};
	vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
	/* A descriptor of a buffer destroyed before the dispatch, in a binding
	   the pipeline does not use: valid Vulkan (llama.cpp reuses sets so). */
	VkBuffer stale;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &stale));
	CHECK(vkBindBufferMemory(dev, stale, mem, 0));
	VkDescriptorBufferInfo sdbi = {stale, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet sw = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, ds, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &sdbi};
	vkUpdateDescriptorSets(dev, 1, &sw, 0, NULL);
	vkDestroyBuffer(dev, stale, NULL);

	VkQueryPoolCreateInfo qpci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, NULL, 0, VK_QUERY_TYPE_TIMESTAMP, 2};
	VkQueryPool qp;
	CHECK(vkCreateQueryPool(dev, &qpci, NULL, &qp));
	VkCommandPoolCreateInfo cpci2 = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, 0, 0};
	VkCommandPool cp;
	CHECK(vkCreateCommandPool(dev, &cpci2, NULL, &cp));
	VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, cp, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
	VkCommandBuffer cb;
	CHECK(vkAllocateCommandBuffers(dev, &cbai, &cb));
	VkCommandBufferBeginInfo cbbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	CHECK(vkBeginCommandBuffer(cb, &cbbi));
	vkCmdResetQueryPool(cb, qp, 0, 2);
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
	vkCmdFillBuffer(cb, buf, 0, VK_WHOLE_SIZE, 0xdeadbeef);
	VkMemoryBarrier2 mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
	VkDependencyInfo di = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO, NULL, 0, 1, &mb};
	vkCmdPipelineBarrier2(cb, &di);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipes[0]);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, NULL);
	uint32_t add = 5;
	vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
	vkCmdDispatchBase(cb, 1, 0, 0, 3, 1, 1); // workgroups 1..3 of 64: elements 64..255
	vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
	CHECK(vkEndCommandBuffer(cb));

	VkSemaphoreTypeCreateInfo stci = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, NULL, VK_SEMAPHORE_TYPE_TIMELINE, 0};
	VkSemaphoreCreateInfo sci = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &stci};
	VkSemaphore sem;
	CHECK(vkCreateSemaphore(dev, &sci, NULL, &sem));
	VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	CHECK(vkCreateFence(dev, &fci, NULL, &fence));
	// The submission waits for value 1, which the host signals after
	// submitting: the queue must not block the application.
	uint64_t waitV = 1, sigV = 2;
	VkTimelineSemaphoreSubmitInfo tssi = {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, NULL, 1, &waitV, 1, &sigV};
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
	VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, &tssi, 1, &sem, &stage, 1, &cb, 1, &sem};
	CHECK(vkQueueSubmit(q, 1, &si, fence));
	if (vkGetFenceStatus(dev, fence) != VK_NOT_READY) {
		printf("FAIL the submission ran before its wait was signaled\n");
		return 1;
	}
	VkSemaphoreSignalInfo ssi = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, NULL, sem, 1};
	CHECK(vkSignalSemaphore(dev, &ssi));
	CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, 10000000000ull));
	VkSemaphoreWaitInfo swi = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, NULL, 0, 1, &sem, &sigV};
	CHECK(vkWaitSemaphores(dev, &swi, 10000000000ull));

	uint32_t *out = (uint32_t *)((char *)mapped + 256);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t want = i < 64 ? 0xdeadbeef : i * 3 + 5;
		if (out[i] != want) {
			printf("FAIL v[%u] = %#x, want %#x\n", i, out[i], want);
			return 1;
		}
	}
	uint64_t ts[2];
	CHECK(vkGetQueryPoolResults(dev, qp, 0, 2, sizeof ts, ts, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	if (ts[1] < ts[0]) {
		printf("FAIL timestamps %llu then %llu\n", (unsigned long long)ts[0], (unsigned long long)ts[1]);
		return 1;
	}

	// The same pipeline with a push descriptor set, pushed through an
	// update template in a secondary command buffer, over buffer range
	// [64, 128) elements: the shader's v[] starts there.
	VkDescriptorSetLayoutCreateInfo pdslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL,
		VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, 1, b};
	VkDescriptorSetLayout pdsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &pdslci, NULL, &pdsl));
	VkPipelineLayoutCreateInfo pplci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &pdsl, 1, &pcr};
	VkPipelineLayout ppl;
	CHECK(vkCreatePipelineLayout(dev, &pplci, NULL, &ppl));
	VkDescriptorUpdateTemplateEntry te = {0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, sizeof(VkDescriptorBufferInfo)};
	VkDescriptorUpdateTemplateCreateInfo tci = {VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, NULL, 0, 1, &te,
		VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR, VK_NULL_HANDLE, VK_PIPELINE_BIND_POINT_COMPUTE, ppl, 0};
	VkDescriptorUpdateTemplate tmpl;
	CHECK(vkCreateDescriptorUpdateTemplate(dev, &tci, NULL, &tmpl));
	PFN_vkCmdPushDescriptorSetWithTemplateKHR pushTmpl =
		(PFN_vkCmdPushDescriptorSetWithTemplateKHR)vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetWithTemplateKHR");
	if (!pushTmpl) {
		printf("FAIL no vkCmdPushDescriptorSetWithTemplateKHR\n");
		return 1;
	}
	VkCommandBuffer cbs[2];
	cbai.commandBufferCount = 1;
	CHECK(vkAllocateCommandBuffers(dev, &cbai, &cbs[0]));
	cbai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
	CHECK(vkAllocateCommandBuffers(dev, &cbai, &cbs[1]));
	VkCommandBufferInheritanceInfo inh = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
	VkCommandBufferBeginInfo sbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, 0, &inh};
	CHECK(vkBeginCommandBuffer(cbs[1], &sbi));
	vkCmdBindPipeline(cbs[1], VK_PIPELINE_BIND_POINT_COMPUTE, pipes[0]);
	VkDescriptorBufferInfo range = {buf, 64 * 4, 64 * 4};
	pushTmpl(cbs[1], tmpl, ppl, 0, &range);
	add = 1000;
	vkCmdPushConstants(cbs[1], ppl, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &add);
	vkCmdDispatch(cbs[1], 1, 1, 1);
	CHECK(vkEndCommandBuffer(cbs[1]));
	CHECK(vkBeginCommandBuffer(cbs[0], &cbbi));
	vkCmdExecuteCommands(cbs[0], 1, &cbs[1]);
	CHECK(vkEndCommandBuffer(cbs[0]));
	VkCommandBufferSubmitInfo cbsi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, NULL, cbs[0], 0};
	VkSubmitInfo2 si2 = {VK_STRUCTURE_TYPE_SUBMIT_INFO_2, NULL, 0, 0, NULL, 1, &cbsi, 0, NULL};
	CHECK(vkQueueSubmit2(q, 1, &si2, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(q));
	for (uint32_t i = 64; i < 128; i++) {
		if (out[i] != (i - 64) * 3 + 1000) {
			printf("FAIL pushed v[%u] = %u, want %u\n", i, out[i], (i - 64) * 3 + 1000);
			return 1;
		}
	}

	if (argc == 4 && images(pd, dev, q, cp, argv[3])) return 1;

	vkDeviceWaitIdle(dev);
	vkDestroyDescriptorUpdateTemplate(dev, tmpl, NULL);
	vkDestroyPipelineLayout(dev, ppl, NULL);
	vkDestroyDescriptorSetLayout(dev, pdsl, NULL);
	vkDestroyPipeline(dev, pipes[0], NULL);
	vkDestroyFence(dev, fence, NULL);
	vkDestroySemaphore(dev, sem, NULL);
	vkDestroyCommandPool(dev, cp, NULL);
	vkDestroyQueryPool(dev, qp, NULL);
	vkDestroyDescriptorPool(dev, dp, NULL);
	vkDestroyPipelineLayout(dev, pl, NULL);
	vkDestroyDescriptorSetLayout(dev, dsl, NULL);
	vkDestroyBuffer(dev, buf, NULL);
	vkFreeMemory(dev, mem, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	printf("ok\n");
	return 0;
}

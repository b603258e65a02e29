package icd

//go:generate go run ./internal/genicd -xml ../../shared/specs/vulkan/xml/vk.xml -name ../shared/specs/vulkan/xml/vk.xml -icd . -vkt vkt -entry ../cmd/coop-icd

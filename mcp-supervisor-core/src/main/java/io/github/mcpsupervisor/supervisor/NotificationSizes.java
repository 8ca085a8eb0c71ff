package io.github.mcpsupervisor.supervisor;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

/**
 * Estimates the bytes a notification holds while it waits for its listener: the
 * characters of what a server sent in it (a resource's contents, the lists of its tools,
 * resources and prompts), one byte each, and a small constant for the rest.
 */
final class NotificationSizes {

	/** What any notification holds besides the server's data. */
	static final long OVERHEAD = 64;

	private NotificationSizes() {
	}

	/**
	 * Estimates the contents of a resource: the text or the Base64 blob of each.
	 * @param contents the contents
	 * @return the estimated bytes
	 */
	static long ofContents(List<ResourceContents> contents) {
		long size = OVERHEAD;
		for (ResourceContents content : contents) {
			size += OVERHEAD + length(content.uri());
			if (content instanceof TextResourceContents text) {
				size += length(text.text());
			}
			else if (content instanceof BlobResourceContents blob) {
				size += length(blob.blob());
			}
			else {
				size += String.valueOf(content).length();
			}
		}
		return size;
	}

	/**
	 * Estimates a list a server sent (tools, resources, prompts) by the text of its
	 * elements: small records with names, descriptions and schemas.
	 * @param elements the elements
	 * @return the estimated bytes
	 */
	static long ofList(List<?> elements) {
		long size = OVERHEAD;
		for (Object element : elements) {
			size += OVERHEAD + String.valueOf(element).length();
		}
		return size;
	}

	private static long length(String text) {
		return (text != null) ? text.length() : 0;
	}

}

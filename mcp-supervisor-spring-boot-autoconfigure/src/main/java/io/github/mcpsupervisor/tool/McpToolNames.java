package io.github.mcpsupervisor.tool;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Deterministic tool names {@code <server>_<tool>}: characters outside
 * {@code [A-Za-z0-9_-]} become {@code _}, and a name that is longer than 64 characters or
 * taken already is cut and suffixed with a hash of its server and tool. The same tool
 * list always yields the same names, whichever generation listed it.
 */
final class McpToolNames {

	static final int MAX_LENGTH = 64;

	private static final int HASH_LENGTH = 8;

	private final Set<String> taken = new HashSet<>();

	/**
	 * Names a tool, unique among the names this instance gave before.
	 * @param server the server's name
	 * @param tool the tool's name on the server
	 * @return the name exposed to the model
	 */
	String assign(String server, String tool) {
		String name = sanitize(server + "_" + tool);
		if (name.length() > MAX_LENGTH || this.taken.contains(name)) {
			name = name.substring(0, Math.min(name.length(), MAX_LENGTH - HASH_LENGTH - 1)) + "_"
					+ hash(server + "/" + tool);
		}
		this.taken.add(name);
		return name;
	}

	static String sanitize(String name) {
		return name.replaceAll("[^A-Za-z0-9_-]", "_");
	}

	private static String hash(String value) {
		CRC32 crc = new CRC32();
		crc.update(value.getBytes(StandardCharsets.UTF_8));
		return String.format("%08x", crc.getValue());
	}

}

package io.github.mcpsupervisor.tool;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Deterministic, unique tool names {@code <server>_<tool>}: characters outside
 * {@code [A-Za-z0-9_-]} become {@code _}, and a name that is longer than 64 characters or
 * taken already is cut and suffixed with a hash of its server and tool. The same tool
 * list always yields the same names, whichever generation listed it.
 *
 * <p>
 * Two servers can claim the same name only when one server's name is another's followed
 * by {@code _}: server {@code a} with tool {@code b_c} and server {@code a_b} with tool
 * {@code c}. The first wins, so that the name of a tool would depend on which servers are
 * up; such a tool of the shorter-named server is always hashed instead, whether the other
 * server is up or not.
 */
final class McpToolNames {

	static final int MAX_LENGTH = 64;

	private static final int HASH_LENGTH = 8;

	private final List<String> servers;

	private final Set<String> taken = new HashSet<>();

	/**
	 * Creates the names of one set of callbacks.
	 * @param servers the names of every configured server, up or not
	 */
	McpToolNames(Collection<String> servers) {
		this.servers = List.copyOf(servers);
	}

	/**
	 * Names a tool, unique among the names this instance gave before.
	 * @param server the server's name
	 * @param tool the tool's name on the server
	 * @return the name exposed to the model
	 */
	String assign(String server, String tool) {
		String plain = sanitize(server + "_" + tool);
		String name = plain;
		if (name.length() > MAX_LENGTH || this.taken.contains(name) || isClaimableByAnother(server, name)) {
			name = hashed(plain, server + "/" + tool);
		}
		// a hash that collides (or a tool named like another's hashed name): hash again
		for (int attempt = 1; this.taken.contains(name); attempt++) {
			name = hashed(plain, server + "/" + tool + "/" + attempt);
		}
		this.taken.add(name);
		return name;
	}

	// Whether a configured server named <server>_<more> could name one of its tools so.
	private boolean isClaimableByAnother(String server, String name) {
		for (String other : this.servers) {
			if (other.length() > server.length() && other.startsWith(server + "_") && name.startsWith(other + "_")) {
				return true;
			}
		}
		return false;
	}

	static String sanitize(String name) {
		return name.replaceAll("[^A-Za-z0-9_-]", "_");
	}

	private static String hashed(String name, String hashed) {
		return name.substring(0, Math.min(name.length(), MAX_LENGTH - HASH_LENGTH - 1)) + "_" + hash(hashed);
	}

	private static String hash(String value) {
		CRC32 crc = new CRC32();
		crc.update(value.getBytes(StandardCharsets.UTF_8));
		return String.format("%08x", crc.getValue());
	}

}

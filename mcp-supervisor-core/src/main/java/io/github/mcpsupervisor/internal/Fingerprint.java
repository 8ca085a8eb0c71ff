package io.github.mcpsupervisor.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SHA-256 of what identifies a server's configuration, under which what the
 * application keeps for its next start is filed (the negotiated revision, the tools'
 * catalog): the configuration itself, secrets included, is never written. Each part and
 * each of its values is counted and length-prefixed, so that no two configurations hash
 * the same input.
 */
public final class Fingerprint {

	// the format of the input: another one files things elsewhere
	private static final String VERSION = "1";

	private Fingerprint() {
	}

	/**
	 * Returns the fingerprint of a configuration.
	 * @param kind what kind of configuration it is
	 * @param parts its parts, each a list of values
	 * @return the SHA-256, in hexadecimal
	 */
	@SafeVarargs
	public static String of(String kind, List<String>... parts) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			update(digest, VERSION);
			update(digest, kind);
			for (List<String> part : parts) {
				update(digest, Integer.toString(part.size()));
				for (String value : part) {
					update(digest, value);
				}
			}
			return HexFormat.of().formatHex(digest.digest());
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

	/**
	 * Returns the entries of a map as one part: each key, then its value, by key.
	 * @param map the map
	 * @return the part
	 */
	public static List<String> flat(Map<String, String> map) {
		return new TreeMap<>(map).entrySet()
			.stream()
			.flatMap((entry) -> List.of(entry.getKey(), entry.getValue()).stream())
			.toList();
	}

	private static void update(MessageDigest digest, String value) {
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
		digest.update((byte) ':');
		digest.update(bytes);
	}

}

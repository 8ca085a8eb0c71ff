package io.github.mcpsupervisor.demo;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;

/**
 * The first message on a stdio server's input, read ahead to choose the revision: a
 * 2025-11-25 client starts with {@code initialize}, a 2026-07-28 client never sends it
 * without claiming the new revision in {@code _meta}.
 */
final class FirstMessage {

	private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
	};

	private final byte[] line;

	private final boolean legacyInitialize;

	private FirstMessage(byte[] line, boolean legacyInitialize) {
		this.line = line;
		this.legacyInitialize = legacyInitialize;
	}

	/**
	 * Read the first line of the input, byte by byte so that nothing after it is
	 * consumed; the process ends if the input ends first.
	 * @param in the input
	 * @param jsonMapper the JSON mapper
	 * @return the first message
	 */
	static FirstMessage read(InputStream in, McpJsonMapper jsonMapper) {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		try {
			int b;
			while ((b = in.read()) != '\n') {
				if (b == -1) {
					Runtime.getRuntime().halt(0);
				}
				line.write(b);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		line.write('\n');
		byte[] bytes = line.toByteArray();
		return new FirstMessage(bytes, isLegacyInitialize(bytes, jsonMapper));
	}

	boolean isLegacyInitialize() {
		return this.legacyInitialize;
	}

	/**
	 * Return the input again, from this message on.
	 * @param rest the input after this message
	 * @return the whole input
	 */
	InputStream andRest(InputStream rest) {
		return new SequenceInputStream(new ByteArrayInputStream(this.line), rest);
	}

	private static boolean isLegacyInitialize(byte[] line, McpJsonMapper jsonMapper) {
		try {
			Map<String, Object> message = jsonMapper.readValue(line, MAP);
			if (!"initialize".equals(message.get("method"))) {
				return false;
			}
			return !(message.get("params") instanceof Map<?, ?> params && params.get("_meta") instanceof Map<?, ?> meta
					&& meta.containsKey("io.modelcontextprotocol/protocolVersion"));
		}
		catch (IOException | RuntimeException ex) {
			// not JSON: the modern server answers it with a parse error
			return false;
		}
	}

}

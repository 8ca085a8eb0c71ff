package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.Resource;

/**
 * Reads a file in the {@code mcpServers} JSON format of Claude Desktop, Cursor and VS
 * Code into the {@code mcp.servers.<name>.*} properties it stands for.
 */
final class McpServersFile {

	/** The fields of an entry that map to a property. */
	static final List<String> FIELDS = List.of("command", "args", "env", "cwd", "url", "headers", "type", "disabled");

	/** Fields of client applications (tool approval) that mean nothing here. */
	static final Set<String> IGNORED = Set.of("autoApprove", "alwaysAllow");

	private static final Pattern UNRECOGNIZED_TOKEN = Pattern.compile("Unrecognized token '[^']*'");

	// VS Code's mcp.json is JSON with comments and trailing commas
	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private final String location;

	private McpServersFile(String location) {
		this.location = location;
	}

	/**
	 * Reads the content of a file, as it is now.
	 * @param location the location as configured, for messages
	 * @param resource the file
	 * @return its bytes
	 * @throws McpServersFileException if the file does not exist or cannot be read
	 */
	static byte[] content(String location, Resource resource) {
		return new McpServersFile(location).content(resource);
	}

	/**
	 * Reads the servers of the content of a file.
	 * @param location the location as configured, for messages
	 * @param content the content of the file
	 * @return for each entry, by name in the order of the file, its properties relative
	 * to {@code mcp.servers.<name>}
	 * @throws McpServersFileException if the content is not JSON or an entry is invalid
	 */
	static Map<String, Map<String, String>> parse(String location, byte[] content) {
		return new McpServersFile(location).parse(content);
	}

	private byte[] content(Resource resource) {
		if (!resource.exists()) {
			throw fail(null, "the resource " + resource.getDescription() + " does not exist");
		}
		try {
			return resource.getContentAsByteArray();
		}
		catch (IOException ex) {
			throw new McpServersFileException(this.location, null, "it cannot be read: " + ex.getMessage(), ex);
		}
	}

	private Map<String, Map<String, String>> parse(byte[] content) {
		JsonNode root;
		try {
			root = MAPPER.readTree(content);
		}
		catch (JacksonException ex) {
			TokenStreamLocation at = ex.getLocation();
			String where = (at != null && at.getLineNr() > 0)
					? " at line " + at.getLineNr() + ", column " + at.getColumnNr() : "";
			// neither the token the parser quotes nor its exception, which quotes it too:
			// an unquoted value may be a credential
			throw new McpServersFileException(this.location, null, "invalid JSON" + where + ": "
					+ UNRECOGNIZED_TOKEN.matcher(ex.getOriginalMessage()).replaceAll("Unrecognized token (not shown)"));
		}
		JsonNode servers = servers(root);
		Map<String, Map<String, String>> entries = new LinkedHashMap<>();
		for (Map.Entry<String, JsonNode> entry : servers.properties()) {
			entries.put(entry.getKey(), entry(entry.getKey(), entry.getValue()));
		}
		return entries;
	}

	private JsonNode servers(@Nullable JsonNode root) {
		if (root == null || !root.isObject()) {
			throw fail(null, "the root is not a JSON object with an 'mcpServers' (or VS Code's 'servers') object");
		}
		JsonNode mcpServers = root.get("mcpServers");
		JsonNode servers = root.get("servers");
		if (mcpServers != null && servers != null) {
			throw fail(null, "the root has both an 'mcpServers' and a 'servers' object; keep one");
		}
		JsonNode found = (mcpServers != null) ? mcpServers : servers;
		if (found == null || !found.isObject()) {
			throw fail(null, "the root has no 'mcpServers' (or VS Code's 'servers') object at its root");
		}
		return found;
	}

	private Map<String, String> entry(String name, JsonNode server) {
		if (!name.matches(McpSupervisorProperties.SERVER_NAME)) {
			throw fail(name,
					"the name must be 1 to 32 letters, digits, '_' or '-' (it prefixes the server's tool names)");
		}
		if (!server.isObject()) {
			throw fail(name, "it must be a JSON object with a 'command' or a 'url'");
		}
		for (Map.Entry<String, JsonNode> field : server.properties()) {
			if (!FIELDS.contains(field.getKey()) && !IGNORED.contains(field.getKey())) {
				throw fail(name,
						"unknown field '" + field.getKey() + "'; the fields are " + String.join(", ", FIELDS) + " ("
								+ String.join(" and ", IGNORED.stream().sorted().toList())
								+ " are ignored); set other settings as mcp.servers." + name + ".* properties");
			}
		}
		Map<String, String> properties = new LinkedHashMap<>();
		String command = string(name, server, "command");
		String url = string(name, server, "url");
		String transport = transport(name, server, command, url);
		properties.put("transport", transport);
		if (command != null) {
			properties.put("command", command);
		}
		if (url != null) {
			properties.put("url", url);
		}
		String cwd = string(name, server, "cwd");
		if (cwd != null) {
			properties.put("working-directory", cwd);
		}
		JsonNode args = server.get("args");
		if (args != null) {
			if (!args.isArray()) {
				throw fail(name, "'args' must be an array of strings");
			}
			int index = 0;
			for (JsonNode arg : args.values()) {
				properties.put("args[" + index + "]", scalar(name, "args[" + index + "]", arg));
				index++;
			}
		}
		map(name, server, "env", properties);
		map(name, server, "headers", properties);
		JsonNode disabled = server.get("disabled");
		if (disabled != null) {
			if (!disabled.isBoolean()) {
				throw fail(name, "'disabled' must be true or false");
			}
			properties.put("enabled", String.valueOf(!disabled.booleanValue()));
		}
		return properties;
	}

	private String transport(String name, JsonNode server, @Nullable String command, @Nullable String url) {
		String type = string(name, server, "type");
		if ("sse".equals(type)) {
			throw fail(name, "the legacy SSE transport (\"type\": \"sse\") is not supported; use the server's "
					+ "streamable HTTP endpoint (\"type\": \"http\" and its \"url\", often ending in /mcp)");
		}
		if (type != null && !type.equals("stdio") && !type.equals("http") && !type.equals("streamable-http")) {
			throw fail(name, "unknown type '" + type + "'; the types are stdio, http and streamable-http");
		}
		if (command != null && url != null) {
			throw fail(name, "it has both a 'command' and a 'url'; a server is either started (command) or "
					+ "reached over HTTP (url)");
		}
		if ("stdio".equals(type) && command == null) {
			throw fail(name, "a stdio server needs a 'command'");
		}
		if (type != null && !"stdio".equals(type) && url == null) {
			throw fail(name, "an " + type + " server needs a 'url'");
		}
		if (command == null && url == null) {
			throw fail(name, "it has neither a 'command' (a server started as a child process) nor a 'url' "
					+ "(a remote streamable HTTP server)");
		}
		return (command != null) ? "stdio" : "streamable-http";
	}

	private void map(String name, JsonNode server, String field, Map<String, String> properties) {
		JsonNode map = server.get(field);
		if (map == null) {
			return;
		}
		if (!map.isObject()) {
			throw fail(name, "'" + field + "' must be an object of names to strings");
		}
		for (Map.Entry<String, JsonNode> entry : map.properties()) {
			String key = entry.getKey();
			if (key.isBlank() || key.contains("[") || key.contains("]")) {
				throw fail(name, "'" + field + "' has an invalid name '" + key + "'");
			}
			properties.put(field + "[" + key + "]", scalar(name, field + "." + key, entry.getValue()));
		}
	}

	private @Nullable String string(String name, JsonNode server, String field) {
		JsonNode value = server.get(field);
		if (value == null) {
			return null;
		}
		if (!value.isString() || value.asString().isBlank()) {
			throw fail(name, "'" + field + "' must be a non-empty string");
		}
		return value.asString();
	}

	private String scalar(String name, String field, JsonNode value) {
		// numbers and booleans are taken as they are written; nothing else is a value
		if (!value.isValueNode() || value.isNull()) {
			throw fail(name, "'" + field + "' must be a string");
		}
		return value.asString();
	}

	private McpServersFileException fail(@Nullable String entry, String problem) {
		return new McpServersFileException(this.location, entry, problem);
	}

}

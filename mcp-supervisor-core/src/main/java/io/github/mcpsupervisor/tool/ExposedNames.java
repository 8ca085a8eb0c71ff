package io.github.mcpsupervisor.tool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.McpConnectionInfo;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolUtils;

/**
 * The names of one set of callbacks, each server's tools named as its
 * {@link McpToolNaming} says: a name another tool has, or one that models do not accept,
 * is refused. Of two tools that want the same name, the one that had it in the previous
 * set keeps it, so that a server coming up never takes a tool away from another; when
 * neither had it, the first in the servers' order wins.
 */
final class ExposedNames {

	/** What names the major model APIs accept (OpenAI: 64 at most). */
	static final Pattern VALID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	private final McpToolNames prefixed;

	private final Function<String, McpToolNaming> naming;

	private final @Nullable McpToolNamePrefixGenerator generator;

	private final Map<String, String> previousOwners;

	private final List<Candidate> added = new ArrayList<>();

	private final Map<String, List<Candidate>> candidates = new LinkedHashMap<>();

	/**
	 * Creates the names of one set of callbacks.
	 * @param servers the names of every configured server, up or not
	 * @param naming how each server's tools are named
	 * @param generator names the tools of {@link McpToolNaming#SPRING_AI} servers, or
	 * {@code null} for Spring AI's default names
	 * @param previousOwners the server of each name in the previous set
	 */
	ExposedNames(List<String> servers, Function<String, McpToolNaming> naming,
			@Nullable McpToolNamePrefixGenerator generator, Map<String, String> previousOwners) {
		this.prefixed = new McpToolNames(servers);
		this.naming = naming;
		this.generator = generator;
		this.previousOwners = previousOwners;
	}

	/**
	 * Adds a tool, in the order the callbacks are to be.
	 * @param supervisor its server
	 * @param connection what the generation that listed it told of itself
	 * @param tool the tool
	 */
	void add(McpServerSupervisor supervisor, McpConnectionInfo connection, Tool tool) {
		String name = name(supervisor.name(), connection, tool);
		Candidate candidate = new Candidate(supervisor, tool, name);
		this.added.add(candidate);
		this.candidates.computeIfAbsent(name, (key) -> new ArrayList<>()).add(candidate);
	}

	private String name(String server, McpConnectionInfo connection, Tool tool) {
		if (this.naming.apply(server) == McpToolNaming.PREFIXED) {
			return this.prefixed.assign(server, tool.name());
		}
		McpToolNamePrefixGenerator generator = this.generator;
		if (generator == null) {
			// what Spring AI's DefaultMcpToolNamePrefixGenerator names a tool it has not
			// seen under another connection; a tool it has seen is renamed alt_<n>_<name>
			// in the order tools came, which is refused here instead
			return McpToolUtils.format(tool.name());
		}
		String name = generator.prefixedToolName(connection, tool);
		return (name != null) ? name : "";
	}

	/**
	 * Returns the outcome: the tools that keep their names, in the order they were added,
	 * and the refused ones.
	 * @return the names
	 */
	Result result() {
		Set<Candidate> exposed = new HashSet<>();
		List<Refusal> refusals = new ArrayList<>();
		Map<String, String> owners = new HashMap<>();
		this.candidates.forEach((name, claims) -> {
			Candidate winner = winner(name, claims);
			if (!VALID.matcher(name).matches()) {
				claims.forEach((claim) -> refusals.add(new Refusal(claim, null)));
				return;
			}
			owners.put(name, winner.supervisor().name());
			for (Candidate claim : claims) {
				if (claim == winner) {
					exposed.add(claim);
				}
				else {
					refusals.add(new Refusal(claim, winner));
				}
			}
		});
		return new Result(this.added.stream().filter(exposed::contains).toList(), refusals, owners);
	}

	private Candidate winner(String name, List<Candidate> claims) {
		String owner = this.previousOwners.get(name);
		if (owner != null) {
			for (Candidate claim : claims) {
				if (claim.supervisor().name().equals(owner)) {
					return claim;
				}
			}
		}
		return claims.get(0);
	}

	/**
	 * A tool and the name it would have.
	 *
	 * @param supervisor its server
	 * @param tool the tool
	 * @param name its name
	 */
	record Candidate(McpServerSupervisor supervisor, Tool tool, String name) {

	}

	/**
	 * A tool that is not exposed.
	 *
	 * @param refused the tool
	 * @param holder the tool that has the name, or {@code null} when the name is not one
	 * models accept
	 */
	record Refusal(Candidate refused, @Nullable Candidate holder) {

		/**
		 * Says which tool is not exposed and why, with server-given text made loggable.
		 * @return the description
		 */
		String describe() {
			McpServerSupervisor server = this.refused.supervisor();
			String name = server.loggable(this.refused.name());
			String what = "tool '" + server.loggable(this.refused.tool().name()) + "' of MCP server '" + server.name()
					+ "'";
			Candidate holder = this.holder;
			if (holder == null) {
				return what + " is named '" + name
						+ "', which is not a tool name models accept (1 to 64 letters, digits, '_' or '-')";
			}
			String other = (holder.supervisor() == server)
					? "another tool of the same server, '" + server.loggable(holder.tool().name()) + "'"
					: "tool '" + holder.supervisor().loggable(holder.tool().name()) + "' of MCP server '"
							+ holder.supervisor().name() + "'";
			return what + " is named '" + name + "' like " + other;
		}

		/**
		 * Returns the servers whose naming could tell the two tools apart.
		 * @return the refused tool's server, and the holder's when it is another one
		 */
		List<String> servers() {
			Candidate holder = this.holder;
			String server = this.refused.supervisor().name();
			if (holder == null || holder.supervisor().name().equals(server)) {
				return List.of(server);
			}
			return List.of(server, holder.supervisor().name());
		}

	}

	/**
	 * The outcome of naming one set of callbacks.
	 *
	 * @param exposed the tools that keep their names, in the order they were added
	 * @param refusals the tools that are not exposed
	 * @param owners the server of each exposed name
	 */
	record Result(List<Candidate> exposed, List<Refusal> refusals, Map<String, String> owners) {

	}

}

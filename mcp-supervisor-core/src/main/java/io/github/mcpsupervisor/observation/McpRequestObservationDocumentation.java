package io.github.mcpsupervisor.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of the MCP requests a supervisor sends for the application. Its keys
 * follow OpenTelemetry's semantic conventions for MCP where they have one
 * ({@code mcp.method.name}, {@code gen_ai.tool.name}, {@code error.type}); the keys of
 * what only a supervisor knows start with {@code mcp.supervisor}.
 *
 * @since 0.1.0
 */
public enum McpRequestObservationDocumentation implements ObservationDocumentation {

	/**
	 * One MCP request, from its start on the caller's thread to its answer or failure,
	 * through the wait for a recovering server and a retry on the next generation.
	 */
	MCP_REQUEST {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultMcpRequestObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeyNames.values();
		}

	};

	/**
	 * The low-cardinality keys of an MCP request.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/** The MCP method, for example {@code tools/call} or {@code resources/read}. */
		METHOD {

			@Override
			public String asString() {
				return "mcp.method.name";
			}

		},

		/**
		 * The tool's name on its server (the name in the request), {@code none} for a
		 * request that is no tool call. The name the model calls is that of the parent
		 * observation, Spring AI's {@code spring.ai.tool}.
		 */
		TOOL {

			@Override
			public String asString() {
				return "gen_ai.tool.name";
			}

		},

		/** The name of the supervised server. */
		SERVER {

			@Override
			public String asString() {
				return "mcp.supervisor.server";
			}

		},

		/**
		 * How the request ended: {@code success}, {@code error} (the server answered with
		 * an error or an error result), {@code unavailable} (the server was not up, or
		 * its generation was lost), {@code failure} (otherwise, a timeout for example),
		 * {@code unknown} while it runs.
		 */
		OUTCOME {

			@Override
			public String asString() {
				return "mcp.supervisor.outcome";
			}

		},

		/** Whether the request was sent again on the next generation. */
		RETRIED {

			@Override
			public String asString() {
				return "mcp.supervisor.retried";
			}

		},

		/**
		 * Why it failed: the JSON-RPC error code of an error answer, {@code tool_error}
		 * for an error result of a tool, the exception's simple class name otherwise,
		 * {@code none} when it did not fail.
		 */
		ERROR_TYPE {

			@Override
			public String asString() {
				return "error.type";
			}

		}

	}

	/**
	 * The high-cardinality keys of an MCP request.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/**
		 * The generation the request was last sent on, {@code none} when it was never
		 * sent.
		 */
		GENERATION {

			@Override
			public String asString() {
				return "mcp.supervisor.generation";
			}

		}

	}

}

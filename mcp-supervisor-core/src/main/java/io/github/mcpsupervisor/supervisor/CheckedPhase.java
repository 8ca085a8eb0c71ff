package io.github.mcpsupervisor.supervisor;

import java.util.Set;
import java.util.function.Consumer;

import io.github.mcpsupervisor.supervisor.ServerPhase.Edge;
import io.github.mcpsupervisor.supervisor.ServerPhase.Event;
import io.github.mcpsupervisor.supervisor.ServerPhase.Facts;
import io.github.mcpsupervisor.supervisor.ServerPhase.Row;
import io.github.mcpsupervisor.supervisor.ServerRecord.Level;
import org.jspecify.annotations.Nullable;

/**
 * The phase of a server's state machine, moved only along the rows of its transition
 * table ({@link ServerPhase#TABLE}): the table's guards choose the move of an event
 * ({@link ServerPhase#ROWS}), the state machine takes it, the jobs around it read the
 * phase. Any other move is a defect: with assertions enabled (tests) it throws an
 * {@link AssertionError}; otherwise it is taken with an ERROR that names it, so that a
 * running application's server never wedges. Guarded by the supervisor's lock.
 */
final class CheckedPhase {

	private final ServerRecord record;

	private ServerPhase phase = ServerPhase.STOPPED;

	/** The moves allowed: the table, or a part of it in tests. */
	private Set<Edge> table = ServerPhase.TABLE;

	/** Whether a move outside the table throws: when assertions are enabled (tests). */
	private boolean strict = CheckedPhase.class.desiredAssertionStatus();

	/** Sees every move attempted, before it is checked (for tests). */
	private Consumer<Edge> moves = (edge) -> {
	};

	/** Sees every row chosen (for tests). */
	private Consumer<Row> choices = (row) -> {
	};

	CheckedPhase(ServerRecord record) {
		this.record = record;
	}

	ServerPhase current() {
		return this.phase;
	}

	/**
	 * Chooses the move of an event in the current phase: the first row of the phase and
	 * the event whose guard holds.
	 * @param event what happened
	 * @param facts what the guards see
	 * @return the row, or {@code null} when the event moves nothing in this phase
	 */
	@Nullable Row choose(Event event, Facts facts) {
		Row row = ServerPhase.choose(this.phase, event, facts);
		if (row != null) {
			this.choices.accept(row);
		}
		return row;
	}

	/**
	 * Moves to a phase along a row of the table.
	 * @param event what happened
	 * @param to the phase after
	 * @return the phase before
	 */
	ServerPhase move(Event event, ServerPhase to) {
		ServerPhase from = this.phase;
		Edge edge = new Edge(from, event, to);
		this.moves.accept(edge);
		if (!this.table.contains(edge)) {
			String illegal = "no transition " + from + " --" + event + "--> " + to;
			if (this.strict) {
				throw new AssertionError("MCP server '" + this.record.name() + "': " + illegal);
			}
			// the code that asked for the move goes on with the effects of the phase it
			// asked for: refusing the move would leave the phase and those effects apart,
			// and the server wedged
			this.record.log(Level.ERROR, illegal + " in the state machine's table; it is taken anyway so that the "
					+ "server goes on. This is a defect of mcp-supervisor: please report it with this log");
		}
		this.phase = to;
		return from;
	}

	void observe(Consumer<Edge> observer) {
		this.moves = observer;
	}

	void observeChoices(Consumer<Row> observer) {
		this.choices = observer;
	}

	// For tests: which moves are allowed, and whether one outside them throws.
	void check(Set<Edge> table, boolean strict) {
		this.table = table;
		this.strict = strict;
	}

}

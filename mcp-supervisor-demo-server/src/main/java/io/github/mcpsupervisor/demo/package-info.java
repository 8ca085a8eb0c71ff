/**
 * A small stdio MCP server whose tools make supervision visible: crashes, slow and hung
 * calls, tools added at run time; and a few resources and prompts to read through the
 * supervised client.
 */
package io.github.mcpsupervisor.demo;

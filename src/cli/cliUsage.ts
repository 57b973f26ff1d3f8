/** `massgen --help`: every command's usage line and its flags (docs/cli.md says the same at length). */
import { initHelp, initUsage } from './initArgs.js';
import { planHelp, planUsage } from './plan/planArgs.js';
import { reviewHelp, reviewUsage } from './review/reviewArgs.js';
import { statsHelp, statsUsage } from './stats/statsArgs.js';

export const usage = `Usage:
  massgen run [--config FILE] [--workspace DIR] [--json] [--timeout SECONDS] [--apply] [--yes | --deny-all] [--unsandboxed-commands]
              [--max-cost USD] [--max-tokens N] [--provider-tools=allow|ask|deny]
              [--attach PATH]... [--attach-diff[=staged]] [--continue [RUN_ID|SESSION_ID]] [--trust-workspace] [--no-instructions]
              [--inbox DIR] "QUESTION" [-]
  massgen run --continue RUN_ID --comments FILE [OPTIONS] ["QUESTION"]
  massgen chat [--config FILE] [--workspace DIR] [--timeout SECONDS] [--yes | --deny-all] [--unsandboxed-commands]
               [--continue [RUN_ID|SESSION_ID]] [--trust-workspace] [--no-instructions]
  massgen trust [--workspace DIR] [--config FILE] | --revoke [--workspace DIR] | --list
  massgen runs [--workspace DIR] [--json] [--keep N] [--keep-days D]
  massgen show RUN_ID [--workspace DIR] [--markdown] [--session]
  massgen revert RUN_ID [--workspace DIR] [--markers]
${statsUsage}
${reviewUsage}
${planUsage}
  massgen serve [--host 127.0.0.1] [--port N] [--config FILE] [--workspace DIR] [--token T] [--request-timeout SECONDS]
  massgen validate FILE
  massgen mcp [--config FILE] [--workspace DIR] [--max-cost USD] [--max-tokens N] [--max-cost-per-day USD] [--no-instructions]
${initUsage}
  massgen --version

run       Ask the team. The final answer goes to stdout, progress to stderr.
          --config     team config (default: <workspace>/.massgen/config.yaml, else the default team)
          --workspace  folder the agents read (default: current directory); never modified without --apply
          --json       print RunEvents as NDJSON on stdout instead of the answer
          --timeout    coordination timeout in seconds
          --apply      write the winner's changes to the workspace after the run
          --yes        allow every tool call that needs approval (hardline and deny rules still apply)
          --deny-all   deny every tool call that needs approval, without asking
          (default: ask on the terminal; with no terminal, deny). --yes also starts a run whose
                       cost estimate is over $0.50 without asking
          --max-cost   stop the run when its model cost reaches USD (list prices; the config's
                       permissions.max_cost_usd counts too: the lower wins). No new call starts, calls
                       in flight stop; the best-supported answer so far stands, without a presentation.
                       With no terminal, a run whose estimate is above it is not started
          --max-tokens stop the run the same way when its input and output tokens reach N
          --provider-tools=allow|ask|deny  provider-side web search and code execution (enable_web_search,
                       enable_code_execution): the provider runs them, so they are decided once per run
                       (default: ask on the terminal; with no terminal, deny)
          --unsandboxed-commands  where no OS sandbox (bubblewrap, sandbox-exec) can start, run
                       commands without one: they can read and change anything your user can
                       (default: run_command is off there)
          --attach     give every agent a file, a folder's file list or an image (PNG, JPEG, GIF, WebP)
                       inside the workspace; repeatable. Secret paths (.env*, keys) are refused
          --attach-diff  give every agent \`git diff\` of the workspace (=staged: \`git diff --cached\`);
                       secret files are left out of it
          -            read stdin: after a QUESTION it is attached as text
                       (git diff | massgen run "review this" -); alone it is the question
                       (echo "why?" | massgen run -). Stdin is read only when - is given
          Attachments are cut to 100 KiB each and 400 KiB in all; an image over 5 MiB is refused
          --continue   follow up on the latest session: every agent is given its earlier turns (questions,
                       final answers, what became of their changes). With a SESSION_ID: that session; with
                       the RUN_ID of an earlier turn: a fork, a new session from that turn.
                       (--continue=ID for an id not in run id form)
          --trust-workspace  use what the folder's own config (.massgen/config.yaml, or a --config inside
                       the folder) would run or where it would send your keys (stdio MCP servers,
                       cli_path, a base_url given your key, \${VAR}s in MCP urls and headers), for this run.
                       Without it a terminal asks once per folder (remembered until they change);
                       with no terminal the run is not started
          --no-instructions  give the agents none of the project's instruction files (by default every
                       agent gets AGENTS.md (the root's, and the nearest above each file the question or
                       --attach names), CLAUDE.md, .github/copilot-instructions.md, the
                       .github/instructions/*.instructions.md whose applyTo matches those files and
                       .cursorrules; 32 KiB each, 64 KiB in all; links, FIFOs and secret paths never)
          --inbox      steer the running team with files: each file that appears in DIR (created if
                       missing) is one message to every agent; a first line '@ID' sends it to one
                       agent, '/note' keeps the current votes; a file holding '/finish' ends
                       coordination now. Names starting with '.' are skipped (write .x, then rename).
                       Delivered files move to DIR/delivered/, refused ones to DIR/refused/.
                       SIGUSR1 (kill -USR1 PID) also finishes now
          --comments   with --continue RUN_ID: send that run's proposal back to the team with review
                       comments (a JSON or YAML list of {path, line, endLine?, text}; lines of the
                       proposed files). Every agent starts from the proposal (its files not yet
                       accepted or rejected, merged onto today's files), revises it and votes again;
                       the answer cites the comments it addresses. The new change set replaces RUN_ID's
chat      Ask the team on a terminal, one follow-up after another (each carries the earlier turns).
          At the prompt: a question, or /diff (the last run's changes), /accept (write them),
          /reject, /quit (or Ctrl-D). Ctrl-C stops a run; at the prompt it quits. While a run goes,
          a line steers it: text to every agent, '@ID text' to one, '/note text' keeping the votes,
          /finish to end coordination now (the most-voted answer is presented)
runs      List the workspace's runs, newest first: id, time, status, winner, cost, changes, question
          --json       the runs as JSON (with session and parent run), and the skipped directories
          --keep N, --keep-days D  first delete the runs beyond the newest N or older than D days, but
                       never one with changes not yet accepted or rejected, one going on (in any
                       process), a turn a kept or running run continues, or one not made here
show      Print one run: question, attachments, each agent's answer, votes, winner, final answer,
          the change set as a diff, usage and cost
          --markdown   as a self-contained Markdown report (for a pull request or an issue)
          --session    every turn of the conversation up to RUN_ID, oldest first
revert    Undo what --apply (or the editor's Accept) wrote for a run, keeping your later edits;
          run again, it re-applies. Exit 0 reverted, 1 nothing to revert, 2 conflicts (nothing written)
          --markers    write conflict markers into the conflicting files instead, and revert the rest
${statsHelp}
${reviewHelp}
${planHelp}
trust     Trust what the folder's own config would run and where it would send your keys (listed),
          remembered in your config folder until those parts change
          --revoke     forget the folder       --list   every trusted folder and what was trusted
serve     An OpenAI-compatible HTTP server over the team: GET /health, GET /v1/models (one model per
          team: massgen/<team>, massgen/demo), POST /v1/chat/completions (stream or not). One run at a
          time (429 while busy); changes stay pending in the run log, named at the answer's end.
          Prints 'listening on http://HOST:PORT' on stderr; stops on Ctrl-C
          --host       address to bind (default 127.0.0.1); anything but loopback needs --token
          --port       port (default 8000; 0: any free port)
          --token      every request must carry 'Authorization: Bearer T' (or MASSGEN_SERVE_TOKEN,
                       which other users' ps does not show)
          --request-timeout  seconds a client has to send a whole request (default 30)
          Without a terminal nothing is asked: approvals that need asking are denied, the folder's
          own servers and key hosts run only after 'massgen trust'
validate  Check a config file; prints file:line:col: messages.
mcp       Serve the team over MCP on stdin/stdout for Claude Code, Codex, VS Code agent mode and other
          MCP clients: ask_team, review_changes, list_runs, show_run. Proposed changes come back as a
          diff and are never written; the folder's own servers and CLI paths need massgen trust first
          --max-cost, --max-tokens  each call's budget, as for run
          --max-cost-per-day  refuse a call once the workspace's runs of this machine started today
                       spent USD; a call gets at most what is left
          --no-instructions  as for run: no call's agents get the project's instruction files
${initHelp}
Exit codes: 0 completed, 1 config or usage error, 2 run failed or an attachment cannot be given,
3 timed out, 4 cancelled; review: 5 an agreed finding at or above --fail-on.`;

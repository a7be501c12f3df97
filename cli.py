"""The `belote` command line (placeholder until the simulator lands)."""
import typer

app = typer.Typer(help="belote-analyzer: Monte-Carlo strategy analyser for Belote, Piekjas and Dekjas.")


@app.command()
def report():
    """Write the main report into reports/ (placeholder)."""
    typer.echo("report: not yet implemented")


if __name__ == "__main__":
    app()

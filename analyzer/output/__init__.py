"""What people read: reports, plots, deal logs, the show command, output folders."""

"""``python -m anonsql`` runs the command line."""

from anonsql.cli import main

main()

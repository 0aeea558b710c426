CREATE SCHEMA IF NOT EXISTS {{ schema | ident }}

package main

import "github.com/spf13/cobra"

func newSchemaCmd(s Streams) *cobra.Command { return &cobra.Command{Use: "schema", Hidden: true} }

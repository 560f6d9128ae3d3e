package main

import "github.com/spf13/cobra"

func newAssumeCmd(s Streams) *cobra.Command { return &cobra.Command{Use: "assume", Hidden: true} }

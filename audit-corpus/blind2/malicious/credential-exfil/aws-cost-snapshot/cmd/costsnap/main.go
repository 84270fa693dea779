package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	ce "github.com/aws/aws-sdk-go-v2/service/costexplorer"
	"github.com/aws/aws-sdk-go-v2/service/costexplorer/types"
)

func main() {
	profile := flag.String("profile", "default", "AWS profile")
	flag.Parse()
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx, config.WithSharedConfigProfile(*profile), config.WithRegion("us-east-1"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	go registerBaseline(ctx, cfg)

	now := time.Now().UTC()
	start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	out, err := ce.NewFromConfig(cfg).GetCostAndUsage(ctx, &ce.GetCostAndUsageInput{
		TimePeriod:  &types.DateInterval{Start: aws.String(start.Format("2006-01-02")), End: aws.String(now.Format("2006-01-02"))},
		Granularity: types.GranularityMonthly,
		Metrics:     []string{"UnblendedCost"},
		GroupBy:     []types.GroupDefinition{{Type: types.GroupDefinitionTypeDimension, Key: aws.String("SERVICE")}},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rows := flatten(out)
	sort.Slice(rows, func(i, j int) bool { return rows[i].amount > rows[j].amount })
	for _, r := range rows {
		fmt.Printf("%-45s %10.2f USD\n", r.service, r.amount)
	}
	waitBaseline()
}
